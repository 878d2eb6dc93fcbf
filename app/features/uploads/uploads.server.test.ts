import { eq, inArray } from "drizzle-orm";
import sharp from "sharp";
import { beforeAll, expect, it } from "vitest";
import { appSettings, blogMedia, blogPosts, uploads } from "~/server/db/schema.server";
import { resetEnvForTests } from "~/server/env.server";
import { getStorage } from "~/server/storage.server";
import { describeEachDatabase } from "../../../tests/helpers/databases";
import { makePost, makeUser } from "../../../tests/helpers/factories";
import { tempDir } from "../../../tests/helpers/temp-dir";
import { ORPHAN_UPLOAD_AGE_MS, saveImages, startImageBatch, sweepOrphanedUploads } from "./uploads.server";

beforeAll(() => {
  // This file's process keeps its stored files in a directory of its own.
  process.env.UPLOAD_DIR = tempDir("uploads-test-");
  resetEnvForTests();
});

const png = () =>
  sharp({ create: { width: 40, height: 30, channels: 3, background: "#3366cc" } })
    .png()
    .toBuffer();

describeEachDatabase("image batches", (ctx) => {
  it("stores each image as it comes; a later bad file discards the ones stored before it and records nothing", async () => {
    const { actor } = await makeUser(ctx.db, { role: "admin" });
    const before = await ctx.db.select({ key: uploads.storageKey }).from(uploads);
    const batch = startImageBatch(actor);
    await batch.add({ name: "good.png", bytes: await png() });
    // Stored, not yet recorded: rows come only with commit().
    expect(await ctx.db.select({ key: uploads.storageKey }).from(uploads)).toHaveLength(before.length);
    await expect(batch.add({ name: "bad.png", bytes: Buffer.from("not an image") })).rejects.toThrow(/bad.png is not a supported image/);
    await batch.discard();
    await expect(batch.commit(ctx.db)).rejects.toThrow("Choose at least one image to upload.");
    expect(await ctx.db.select({ key: uploads.storageKey }).from(uploads)).toHaveLength(before.length);
    const files: string[] = [];
    for await (const object of getStorage().list()) files.push(object.key);
    expect(files.filter((k) => k.startsWith(`blog-images/${actor.id}/`))).toEqual([]);
  });

  it("refuses plain users before reading anything", async () => {
    const { actor } = await makeUser(ctx.db);
    expect(() => startImageBatch(actor)).toThrow("You don't have permission to upload images.");
  });
});

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

  it("looks at a whole batch at once: a key used in any column is kept, in any address form", async () => {
    const { actor } = await makeUser(ctx.db, { role: "moderator" });
    const names = ["featured", "gallery", "setting", "absolute", "unused"];
    const images = await saveImages(
      ctx.db,
      actor,
      await Promise.all(names.map(async (name) => ({ name: `${name}.png`, bytes: await png() }))),
    );
    const [featured, gallery, setting, absolute, unused] = images;
    if (!featured || !gallery || !setting || !absolute || !unused) throw new Error("five uploads expected");
    const keyOf = (url: string) => url.replace(/^\/uploads\//, "");
    await ctx.db
      .update(uploads)
      .set({ createdAt: new Date(Date.now() - ORPHAN_UPLOAD_AGE_MS - 60_000) })
      .where(
        inArray(
          uploads.storageKey,
          images.map((i) => keyOf(i.url)),
        ),
      );
    const post = await makePost(ctx.db, { featuredImageUrl: featured.url, content: `See https://example.com${absolute.url}.` });
    await ctx.db.insert(blogMedia).values({ postId: post.id, mediaType: "image", mediaUrl: gallery.url });
    await ctx.db.insert(appSettings).values({ key: `test-${keyOf(setting.url)}`, value: JSON.stringify({ logo: setting.url }) });

    expect(await sweepOrphanedUploads(ctx.db)).toEqual([keyOf(unused.url)]);
  });
});
