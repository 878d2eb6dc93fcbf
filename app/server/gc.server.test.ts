import { setImmediate as tick } from "node:timers/promises";
import { afterEach, describe, expect, it, vi } from "vitest";
import { releaseNativeMemorySoon } from "./gc.server";

/** A WeakRef to an object nothing else holds (WeakRefs keep their target until the current job ends). */
async function garbage(): Promise<WeakRef<object>> {
  const ref = new WeakRef({ payload: new Array(1000).fill(0) });
  await tick();
  return ref;
}

afterEach(() => {
  vi.useRealTimers();
});

describe("releaseNativeMemorySoon", () => {
  it("runs a full collection at once, then at most one more per half second", async () => {
    const first = await garbage();
    releaseNativeMemorySoon();
    expect(first.deref()).toBeUndefined();

    vi.useFakeTimers({ toFake: ["setTimeout", "Date"] });
    const second = await garbage();
    releaseNativeMemorySoon();
    releaseNativeMemorySoon();
    await tick();
    expect(second.deref()).toBeDefined();
    // deref() keeps its target until the current job ends.
    await tick();
    vi.advanceTimersByTime(500);
    expect(second.deref()).toBeUndefined();
  });
});
