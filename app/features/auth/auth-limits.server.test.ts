import { describe, expect, it } from "vitest";
import { loginDelayMs } from "./auth.server";

describe("loginDelayMs", () => {
  it("is zero up to the account ceiling, then 250 ms doubling per attempt, at most 8 s", () => {
    expect(loginDelayMs(1, 20)).toBe(0);
    expect(loginDelayMs(20, 20)).toBe(0);
    expect(loginDelayMs(21, 20)).toBe(250);
    expect(loginDelayMs(22, 20)).toBe(500);
    expect(loginDelayMs(25, 20)).toBe(4000);
    expect(loginDelayMs(26, 20)).toBe(8000);
    expect(loginDelayMs(10_000, 20)).toBe(8000);
  });
});
