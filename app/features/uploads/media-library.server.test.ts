import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { beforeAll, expect, it } from "vitest";
import { uploads } from "~/server/db/schema.server";
import { ConflictError, ForbiddenError } from "~/server/errors.server";
import { resetEnvForTests } from "~/server/env.server";
import { getStorage } from "~/server/storage.server";
import { describeEachDatabase } from "../../../tests/helpers/databases";
import { makePost, makeUser } from "../../../tests/helpers/factories";
import { deleteMediaUpload, listMediaLibrary, UPLOAD_IN_USE } from "./media-library.server";
import { saveImages } from "./uploads.server";

beforeAll(() => {
  process.env.UPLOAD_DIR = mkdtempSync(path.join(tmpdir(), "media-library-test-"));
  resetEnvForTests();
});

const image = () =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: "#cc6633" } })
    .png()
    .toBuffer();

describeEachDatabase("media library", (ctx) => {
  it("lists uploads with size, dimensions, uploader and use; deletes only unused ones, and only the uploader's or an admin's", async () => {
    const mod = await makeUser(ctx.db, { role: "moderator", name: "Mo Derator" });
    const other = await makeUser(ctx.db, { role: "moderator" });
    const admin = await makeUser(ctx.db, { role: "admin" });
    const tag = `lib${Date.now()}`;
    const [used, spare] = await saveImages(ctx.db, mod.actor, [
      { name: `${tag}-used.png`, bytes: await image() },
      { name: `${tag}-spare.png`, bytes: await image() },
    ]);
    if (!used || !spare) throw new Error("two uploads expected");
    await makePost(ctx.db, { content: `Look: ![a cat](${used.url})` });

    const listed = await listMediaLibrary(ctx.db, mod.actor, { q: tag });
    expect(listed.count).toBe(2);
    expect(listed.storageBytes).toBeGreaterThan(0);
    const byName = Object.fromEntries(listed.items.map((i) => [i.originalName, i]));
    expect(byName[`${tag}-used.png`]).toMatchObject({ used: true, width: 64, height: 48, uploader: "Mo Derator", canDelete: true });
    expect(byName[`${tag}-spare.png`]?.used).toBe(false);
    expect((await listMediaLibrary(ctx.db, other.actor, { q: tag })).items.every((i) => !i.canDelete)).toBe(true);

    const idOf = (name: string) => byName[name]?.id ?? "";
    await expect(deleteMediaUpload(ctx.db, mod.actor, idOf(`${tag}-used.png`))).rejects.toThrow(ConflictError);
    await expect(deleteMediaUpload(ctx.db, mod.actor, idOf(`${tag}-used.png`))).rejects.toThrow(UPLOAD_IN_USE);
    await expect(deleteMediaUpload(ctx.db, other.actor, idOf(`${tag}-spare.png`))).rejects.toBeInstanceOf(ForbiddenError);
    await deleteMediaUpload(ctx.db, admin.actor, idOf(`${tag}-spare.png`));
    expect(
      await ctx.db
        .select({ id: uploads.id })
        .from(uploads)
        .where(eq(uploads.id, idOf(`${tag}-spare.png`))),
    ).toEqual([]);
    const key = spare.url.slice(spare.url.indexOf("blog-images/"));
    expect(await getStorage().get(key)).toBeNull();
    expect((await listMediaLibrary(ctx.db, mod.actor, { q: tag })).count).toBe(1);
  });
});
