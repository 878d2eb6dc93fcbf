import { describe, expect, it } from "vitest";
import { ROLE_LABELS, roleFromStored } from "./roles";

describe("roles", () => {
  it("checks admin first, then moderator, else user", () => {
    expect(roleFromStored(["moderator", "admin"])).toBe("admin");
    expect(roleFromStored(["moderator"])).toBe("moderator");
    expect(roleFromStored([])).toBe("user");
    expect(ROLE_LABELS.admin).toBe("Administrator");
  });
});
