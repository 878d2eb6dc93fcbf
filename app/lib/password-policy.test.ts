import { describe, expect, it } from "vitest";
import { passwordProblem } from "./password-policy";

describe("password policy", () => {
  it("rejects short, repetitive and email-based passwords", () => {
    expect(passwordProblem("short")).toMatch(/at least 10/);
    expect(passwordProblem("aaaaaaaaaaaa")).toMatch(/too simple/);
    expect(passwordProblem("jane.doe-2024!", "jane.doe@example.com")).toMatch(/email/);
    expect(passwordProblem("x".repeat(129))).toMatch(/at most/);
    expect(passwordProblem("correct horse battery")).toBeNull();
    expect(passwordProblem("correct horse battery", "@nobody")).toBeNull();
  });
});
