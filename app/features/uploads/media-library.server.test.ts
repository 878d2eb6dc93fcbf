import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { beforeAll, expect, it } from "vitest";
import { uploads } from "~/server/db/schema.server";
import { ConflictError, ForbiddenError, UnauthorizedError } from "~/server/errors.server";
import { resetEnvForTests } from "~/server/env.server";
import { getStorage } from "~/server/storage.server";
import { describeEachDatabase } from "../../../tests/helpers/databases";
import { makePost, makeUser } from "../../../tests/helpers/factories";
import { deleteMediaUpload, listMediaLibrary, listPickableImages, setUploadAlt, UPLOAD_IN_USE } from "./media-library.server";
import { saveImages, startImageBatch } from "./uploads.server";

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
    expect(byName[`${tag}-used.png`]).toMatchObject({ used: true, width: 64, height: 48, uploader: "Mo Derator", canManage: true });
    expect(byName[`${tag}-spare.png`]?.used).toBe(false);
    expect((await listMediaLibrary(ctx.db, other.actor, { q: tag })).items.every((i) => !i.canManage)).toBe(true);

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

  it("keeps alt text with the upload: given at upload, edited by the uploader or an admin, found by search, listed for the picker", async () => {
    const mod = await makeUser(ctx.db, { role: "moderator" });
    const other = await makeUser(ctx.db, { role: "moderator" });
    const admin = await makeUser(ctx.db, { role: "admin" });
    const tag = `alt${Date.now()}`;
    const batch = startImageBatch(mod.actor);
    await batch.add({ name: `${tag}-harbour.png`, bytes: await image() });
    const [uploaded] = await batch.commit(ctx.db, "  A harbour at dawn  ");
    if (!uploaded) throw new Error("one upload expected");
    expect(uploaded.alt).toBe("A harbour at dawn");

    // The alt text is searched like the name, and the picker answers it as the default alt.
    const found = await listMediaLibrary(ctx.db, mod.actor, { q: "harbour at dawn" });
    expect(found.items.map((i) => i.id)).toContain(uploaded.id);
    expect(await listPickableImages(ctx.db, mod.actor, { q: tag })).toEqual([
      expect.objectContaining({ id: uploaded.id, alt: "A harbour at dawn", url: uploaded.url, width: 64, height: 48 }),
    ]);

    await setUploadAlt(ctx.db, mod.actor, uploaded.id, "Boats in a harbour at dawn");
    await expect(setUploadAlt(ctx.db, other.actor, uploaded.id, "Not theirs")).rejects.toBeInstanceOf(ForbiddenError);
    expect((await listPickableImages(ctx.db, admin.actor, { q: tag }))[0]?.alt).toBe("Boats in a harbour at dawn");
    await setUploadAlt(ctx.db, admin.actor, uploaded.id, "Edited by the admin");
    expect((await listPickableImages(ctx.db, other.actor, { q: "edited by the" }))[0]?.id).toBe(uploaded.id);
    await expect(listPickableImages(ctx.db, null, {})).rejects.toBeInstanceOf(UnauthorizedError);
  });

  it("filters by kind: images, or other files (the resume), which the picker never lists", async () => {
    const admin = await makeUser(ctx.db, { role: "admin" });
    const tag = `kind${Date.now()}`;
    await saveImages(ctx.db, admin.actor, [{ name: `${tag}-photo.png`, bytes: await image() }]);
    await ctx.db.insert(uploads).values({
      userId: admin.id,
      bucket: "documents",
      storageKey: `documents/${tag}.pdf`,
      contentType: "application/pdf",
      byteSize: 100,
      width: 0,
      height: 0,
      originalName: `${tag}-resume.pdf`,
    });
    const names = async (kind: "images" | "other" | null) =>
      (await listMediaLibrary(ctx.db, admin.actor, { q: tag, kind })).items.map((i) => [i.originalName, i.isImage]);
    expect(await names(null)).toEqual([
      [`${tag}-resume.pdf`, false],
      [`${tag}-photo.png`, true],
    ]);
    expect(await names("images")).toEqual([[`${tag}-photo.png`, true]]);
    expect(await names("other")).toEqual([[`${tag}-resume.pdf`, false]]);
    expect((await listPickableImages(ctx.db, admin.actor, { q: tag })).map((i) => i.name)).toEqual([`${tag}-photo.png`]);
  });
});
