import { describe, expect, it } from "vitest";
import { createTurnQueue } from "./turn-queue";

describe("createTurnQueue", () => {
  it("starts waiting work one per event-loop turn, in arrival order", async () => {
    const nextTurn = createTurnQueue();
    const started: string[] = [];
    let turn = 0;
    // Counts turns of the loop: an immediate scheduled from an immediate runs in the next turn.
    const counting = new Promise<void>((resolve) => {
      const tick = () => {
        turn++;
        if (turn < 10) setImmediate(tick);
        else resolve();
      };
      setImmediate(tick);
    });
    await Promise.all(
      ["a", "b", "c"].map(async (name) => {
        await nextTurn();
        started.push(`${name}@${turn}`);
      }),
    );
    await counting;
    const turns = started.map((entry) => Number(entry.split("@")[1]));
    expect(started.map((entry) => entry.split("@")[0])).toEqual(["a", "b", "c"]);
    expect(new Set(turns).size).toBe(3);
  });
});
