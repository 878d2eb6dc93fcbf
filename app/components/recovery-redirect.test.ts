import { describe, expect, it } from "vitest";
import { isRecoveryFragment } from "./recovery-redirect";

describe("isRecoveryFragment", () => {
  it("recognises type=recovery among other fragment parameters", () => {
    expect(isRecoveryFragment("#access_token=abc&type=recovery")).toBe(true);
    expect(isRecoveryFragment("type=recovery")).toBe(true);
  });
  it("ignores other fragments", () => {
    expect(isRecoveryFragment("")).toBe(false);
    expect(isRecoveryFragment("#type=signup")).toBe(false);
    expect(isRecoveryFragment("#section-recovery")).toBe(false);
    expect(isRecoveryFragment("#type=recovery2")).toBe(false);
  });
});
