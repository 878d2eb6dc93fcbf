import { describe, expect, it } from "vitest";
import { isStoredRole, ROLE_LABELS, ROLES, roleFromStored } from "./roles";

describe("roles", () => {
  it("checks admin first, then moderator, else user", () => {
    expect(roleFromStored(["moderator", "admin"])).toBe("admin");
    expect(roleFromStored(["moderator"])).toBe("moderator");
    expect(roleFromStored([])).toBe("user");
    expect(ROLE_LABELS.admin).toBe("Administrator");
  });

  it("lists every role, and tells stored ones apart", () => {
    expect([...ROLES].sort()).toEqual(["admin", "moderator", "user"]);
    expect(isStoredRole("moderator")).toBe(true);
    expect(isStoredRole("user")).toBe(false);
    expect(isStoredRole("superuser")).toBe(false);
  });
});
