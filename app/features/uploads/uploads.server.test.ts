import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, inArray } from "drizzle-orm";
import sharp from "sharp";
import { beforeAll, expect, it } from "vitest";
import { blogPosts, uploads } from "~/server/db/schema.server";
import { resetEnvForTests } from "~/server/env.server";
import { getStorage } from "~/server/storage.server";
import { describeEachDatabase } from "../../../tests/helpers/databases";
import { makePost, makeUser } from "../../../tests/helpers/factories";
import { ORPHAN_UPLOAD_AGE_MS, saveImages, sweepOrphanedUploads } from "./uploads.server";

beforeAll(() => {
  // This file's process keeps its stored files in a directory of its own.
  process.env.UPLOAD_DIR = mkdtempSync(path.join(tmpdir(), "uploads-test-"));
  resetEnvForTests();
});

const png = () =>
  sharp({ create: { width: 40, height: 30, channels: 3, background: "#3366cc" } })
    .png()
    .toBuffer();

describeEachDatabase("orphaned uploads", (ctx) => {
  it("deletes files and rows nothing has used for a day; keeps used and recent ones and looks at them again later", async () => {
    const { actor } = await makeUser(ctx.db, { role: "moderator" });
    const [orphan, used, recent] = await saveImages(ctx.db, actor, [
      { name: "orphan.png", bytes: await png() },
      { name: "used.png", bytes: await png() },
      { name: "recent.png", bytes: await png() },
    ]);
    if (!orphan || !used || !recent) throw new Error("three uploads expected");
    const keyOf = (url: string) => url.replace(/^\/uploads\//, "");
    const old = new Date(Date.now() - ORPHAN_UPLOAD_AGE_MS - 60_000);
    await ctx.db
      .update(uploads)
      .set({ createdAt: old })
      .where(inArray(uploads.storageKey, [keyOf(orphan.url), keyOf(used.url)]));
    await makePost(ctx.db, { content: `A photo: ![Used](${used.url})` });

    const now = new Date();
    const deleted = await sweepOrphanedUploads(ctx.db, { now });
    expect(deleted).toEqual([keyOf(orphan.url)]);
    expect(await getStorage().get(keyOf(orphan.url))).toBeNull();
    expect(await getStorage().get(keyOf(used.url))).not.toBeNull();
    const rows = await ctx.db
      .select({ storageKey: uploads.storageKey, checkedAt: uploads.checkedAt })
      .from(uploads)
      .where(
        inArray(
          uploads.storageKey,
          [orphan, used, recent].map((u) => keyOf(u.url)),
        ),
      );
    expect(rows.map((r) => r.storageKey).sort()).toEqual([keyOf(recent.url), keyOf(used.url)].sort());
    // The used one is stamped, so the next round starts with uploads not yet looked at.
    expect(rows.find((r) => r.storageKey === keyOf(used.url))?.checkedAt?.getTime()).toBe(now.getTime());
    expect(rows.find((r) => r.storageKey === keyOf(recent.url))?.checkedAt).toBeNull();

    // Once its post is gone, the next round deletes it too.
    await ctx.db
      .update(uploads)
      .set({ checkedAt: old })
      .where(eq(uploads.storageKey, keyOf(used.url)));
    await ctx.db.delete(blogPosts).where(eq(blogPosts.content, `A photo: ![Used](${used.url})`));
    expect(await sweepOrphanedUploads(ctx.db)).toContain(keyOf(used.url));
  });
});
