import { describe, expect, it } from "vitest";
import { passwordProblem } from "~/lib/password-policy";
import { generatePassword } from "./password.server";

describe("generatePassword", () => {
  it("meets the password policy and differs each time", () => {
    const first = generatePassword();
    expect(first).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(passwordProblem(first, "someone@example.com")).toBeNull();
    expect(generatePassword()).not.toBe(first);
  });
});
