import { setImmediate as tick } from "node:timers/promises";
import { afterEach, describe, expect, it, vi } from "vitest";
import { noteRequest, releaseNativeMemorySoon, startIdleCollection, stopIdleCollection } from "./gc.server";

/** A WeakRef to an object nothing else holds (WeakRefs keep their target until the current job ends). */
async function garbage(): Promise<WeakRef<object>> {
  const ref = new WeakRef({ payload: new Array(1000).fill(0) });
  await tick();
  return ref;
}

afterEach(() => {
  stopIdleCollection();
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

describe("idle collection", () => {
  it("collects once after a second without requests, not while requests keep coming, and not again while idle", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval", "Date"] });
    startIdleCollection();
    const busy = await garbage();
    await tick();
    for (let i = 0; i < 6; i++) {
      noteRequest();
      vi.advanceTimersByTime(400);
    }
    expect(busy.deref()).toBeDefined();
    await tick();
    vi.advanceTimersByTime(1_000);
    expect(busy.deref()).toBeUndefined();

    // Quiet since: nothing to hand back, no collection.
    const idle = await garbage();
    await tick();
    vi.advanceTimersByTime(5_000);
    expect(idle.deref()).toBeDefined();
    await tick();
    noteRequest();
    vi.advanceTimersByTime(1_500);
    expect(idle.deref()).toBeUndefined();
  });
});
