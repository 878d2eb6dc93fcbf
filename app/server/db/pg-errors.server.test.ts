import { describe, expect, it } from "vitest";
import { DEADLOCK_DETECTED, EXCLUSION_VIOLATION, retryOnDeadlock } from "./pg-errors.server";

/** A query error as drizzle throws it: the driver's error, with its SQLSTATE, as the cause. */
function queryError(code: string): Error {
  return new Error("Failed query", { cause: Object.assign(new Error("database error"), { code }) });
}

describe("retryOnDeadlock", () => {
  it("runs a write aborted to break a deadlock again, and answers with its result", async () => {
    let runs = 0;
    const result = await retryOnDeadlock(async () => {
      runs++;
      if (runs < 3) throw queryError(DEADLOCK_DETECTED);
      return "booked";
    });
    expect(result).toBe("booked");
    expect(runs).toBe(3);
  });

  it("gives up after the attempts, with the deadlock", async () => {
    let runs = 0;
    const failing = retryOnDeadlock(async () => {
      runs++;
      throw queryError(DEADLOCK_DETECTED);
    }, 2);
    await expect(failing).rejects.toThrow("Failed query");
    expect(runs).toBe(2);
  });

  it("does not run a write again for any other error", async () => {
    let runs = 0;
    const failing = retryOnDeadlock(async () => {
      runs++;
      throw queryError(EXCLUSION_VIOLATION);
    });
    await expect(failing).rejects.toThrow("Failed query");
    expect(runs).toBe(1);
  });
});
