import { afterEach, describe, expect, it } from "vitest";
import { describeEachDatabase } from "../../tests/helpers/databases";
import { eventually, useSecondHandle } from "../../tests/helpers/second-handle";
import {
  bumpContentVersion,
  ContentVersionWatcher,
  currentContentVersion,
  onContentVersionChange,
  readContentVersion,
  refreshContentVersion,
  startContentVersion,
  stopContentVersion,
  type ContentVersionWatcherOptions,
} from "./content-version.server";

describeEachDatabase("content version", (ctx) => {
  const watchers: ContentVersionWatcher[] = [];
  const watch = async (options: ContentVersionWatcherOptions = {}) => {
    const watcher = new ContentVersionWatcher({ database: () => ctx.database, pollMs: 60_000, ...options });
    watchers.push(watcher);
    await watcher.start();
    return watcher;
  };
  afterEach(async () => {
    await Promise.all(watchers.splice(0).map((w) => w.stop()));
  });

  it("counts up by one per committed bump", async () => {
    const before = await readContentVersion(ctx.db);
    const bumped = await ctx.db.transaction((tx) => bumpContentVersion(tx));
    expect(bumped).toBe(before + 1);
    expect(await readContentVersion(ctx.db)).toBe(before + 1);
  });

  it("a bump in a transaction that rolls back changes nothing, here or in a watcher", async () => {
    const watcher = await watch();
    const before = await readContentVersion(ctx.db);
    const seen: number[] = [];
    watcher.onChange((v) => seen.push(v));
    await expect(
      ctx.db.transaction(async (tx) => {
        await bumpContentVersion(tx);
        throw new Error("the write failed");
      }),
    ).rejects.toThrow("the write failed");
    expect(await readContentVersion(ctx.db)).toBe(before);
    // A committed bump afterwards arrives; the rolled-back one never did.
    await ctx.db.transaction((tx) => bumpContentVersion(tx));
    await eventually(() => seen.length > 0, 1_000, "the committed bump");
    expect(seen).toEqual([before + 1]);
    expect(watcher.current()).toBe(before + 1);
  });

  it("the process-wide watcher follows bumps; refreshContentVersion reads the committed value at once", async () => {
    await startContentVersion();
    try {
      const changes: number[] = [];
      const unsubscribe = onContentVersionChange((v) => changes.push(v));
      const bumped = await ctx.db.transaction((tx) => bumpContentVersion(tx));
      expect(await refreshContentVersion()).toBe(bumped);
      expect(currentContentVersion()).toBe(bumped);
      expect(changes).toEqual([bumped]);
      unsubscribe();
    } finally {
      await stopContentVersion();
    }
    expect(() => currentContentVersion()).toThrow(/not being followed/);
  });

  it("concurrent bumps never lose a count", async () => {
    const before = await readContentVersion(ctx.db);
    await Promise.all(Array.from({ length: 10 }, () => ctx.db.transaction((tx) => bumpContentVersion(tx))));
    expect(await readContentVersion(ctx.db)).toBe(before + 10);
  });

  describe("two instances on one database", () => {
    const secondDatabase = useSecondHandle(ctx);

    it("each sees the other's bump within a second through NOTIFY", async () => {
      // Re-reads are a minute apart here, so only the notification can deliver the change in time.
      const a = await watch();
      const b = await watch({ database: secondDatabase });
      const changes: number[] = [];
      a.onChange((v) => changes.push(v));
      const fromA = await ctx.db.transaction((tx) => bumpContentVersion(tx));
      await eventually(() => b.current() === fromA, 1_000, "instance B to see A's bump");
      const fromB = await secondDatabase().db.transaction((tx) => bumpContentVersion(tx));
      await eventually(() => a.current() === fromB, 1_000, "instance A to see B's bump");
      expect(changes).toEqual([fromA, fromB]);
    });

    it("without notifications, the periodic re-read still catches up within a second", async () => {
      const b = await watch({ database: secondDatabase, listen: false, pollMs: 200 });
      const bumped = await ctx.db.transaction((tx) => bumpContentVersion(tx));
      await eventually(() => b.current() === bumped, 1_000, "the re-read to see the bump");
    });
  });
});
