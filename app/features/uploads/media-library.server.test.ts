import { eq } from "drizzle-orm";
import sharp from "sharp";
import { beforeAll, expect, it } from "vitest";
import { appSettings, blogMedia, blogPosts, postRevisions, uploads } from "~/server/db/schema.server";
import { readContentVersion } from "~/server/content-version.server";
import { renderPostBody } from "~/features/posts/content/post-render.server";
import { ConflictError, ForbiddenError, UnauthorizedError } from "~/server/errors.server";
import { resetEnvForTests } from "~/server/env.server";
import { getStorage } from "~/server/storage.server";
import { describeEachDatabase } from "../../../tests/helpers/databases";
import { makePost, makeProject, makeUser } from "../../../tests/helpers/factories";
import { tempDir } from "../../../tests/helpers/temp-dir";
import {
  cleanOrphanedUploads,
  deleteMediaUpload,
  listMediaLibrary,
  listPickableImages,
  setUploadAlt,
  UPLOAD_IN_USE,
} from "./media-library.server";
import { saveImages, startImageBatch, uploadedImagesFor } from "./uploads.server";

beforeAll(() => {
  process.env.UPLOAD_DIR = tempDir("media-library-test-");
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

  it("names where each upload is used: a post (linked to its editor), a project, a setting, only a revision", async () => {
    const admin = await makeUser(ctx.db, { role: "admin" });
    const tag = `uses${Date.now()}`;
    const names = ["body", "gallery", "project", "setting", "revision"];
    const files = await Promise.all(names.map(async (n) => ({ name: `${tag}-${n}.png`, bytes: await image() })));
    const [inPost, inGallery, inProject, inSetting, inRevision] = await saveImages(ctx.db, admin.actor, files);
    if (!inPost || !inGallery || !inProject || !inSetting || !inRevision) throw new Error("five uploads expected");
    const post = await makePost(ctx.db, { title: `${tag} Harbour notes`, category: "Faith", content: `![x](${inPost.url})` });
    await ctx.db.insert(blogMedia).values({ postId: post.id, mediaType: "image", mediaUrl: inGallery.url, displayOrder: 0 });
    await makeProject(ctx.db, { title: `${tag} Lighthouse`, imageUrl: inProject.url });
    await ctx.db.insert(appSettings).values({ key: `${tag}-test`, value: JSON.stringify({ portraitUrl: inSetting.url }) });
    const old = await makePost(ctx.db, { title: `${tag} Old draft`, content: "Nothing now" });
    await ctx.db.insert(postRevisions).values({ postId: old.id, kind: "save", title: old.title, content: `![y](${inRevision.url})` });

    const listed = await listMediaLibrary(ctx.db, admin.actor, { q: tag });
    const usesOf = (name: string) => listed.items.find((i) => i.originalName === `${tag}-${name}.png`)?.uses;
    const editPost = `/7fs/Faith/${post.slug}/edit`;
    expect(usesOf("body")).toEqual([{ label: `Post “${tag} Harbour notes”`, href: editPost }]);
    expect(usesOf("gallery")).toEqual([{ label: `Post “${tag} Harbour notes”`, href: editPost }]);
    expect(usesOf("project")).toEqual([{ label: `Project “${tag} Lighthouse”`, href: "/admin/projects" }]);
    expect(usesOf("setting")).toEqual([{ label: `Page texts and settings (${tag}-test)`, href: null }]);
    expect(usesOf("revision")).toEqual([
      { label: `An earlier revision or autosave of “${tag} Old draft”`, href: `/7fs/Fun/${old.slug}/edit` },
    ]);
    expect(listed.items.every((i) => i.used === i.uses.length > 0 && i.used)).toBe(true);
    // In use anywhere, even only in a revision: deleting is refused.
    const revisionId = listed.items.find((i) => i.originalName === `${tag}-revision.png`)?.id ?? "";
    await expect(deleteMediaUpload(ctx.db, admin.actor, revisionId)).rejects.toThrow(UPLOAD_IN_USE);
  });

  it("an alt text edited once in the library is the alt of the image in every post body and as a featured image", async () => {
    const admin = await makeUser(ctx.db, { role: "admin" });
    const tag = `altall${Date.now()}`;
    const [img] = await saveImages(ctx.db, admin.actor, [{ name: `${tag}.png`, bytes: await image() }]);
    if (!img) throw new Error("one upload expected");
    const postWith = async (content: string) => {
      const body = await renderPostBody(ctx.db, content);
      return makePost(ctx.db, {
        content,
        contentHtml: body.html,
        contentText: body.text,
        featuredImageUrl: img.url,
        featuredImageAlt: "Old cover",
      });
    };
    const first = await postWith(`Before ![Old words](${img.url}) after`);
    const second = await postWith(`![Other old words](${img.url})`);
    const untouched = await postWith("No image here");
    const htmlOf = async (id: string) =>
      (await ctx.db.select({ html: blogPosts.contentHtml }).from(blogPosts).where(eq(blogPosts.id, id)))[0]?.html ?? "";
    expect(await htmlOf(first.id)).toContain('alt="Old words"');
    const untouchedBefore = await htmlOf(untouched.id);
    const version = await readContentVersion(ctx.db);

    await setUploadAlt(ctx.db, admin.actor, img.id, "A harbour in the fog");
    expect(await htmlOf(first.id)).toContain('alt="A harbour in the fog"');
    expect(await htmlOf(second.id)).toContain('alt="A harbour in the fog"');
    expect(await htmlOf(second.id)).not.toContain("Other old words");
    expect(await htmlOf(untouched.id)).toBe(untouchedBefore);
    // The Markdown the author wrote is unchanged; cached pages follow the bumped content version.
    expect((await ctx.db.select({ c: blogPosts.content }).from(blogPosts).where(eq(blogPosts.id, first.id)))[0]?.c).toContain("Old words");
    expect(await readContentVersion(ctx.db)).toBeGreaterThan(version);
    expect((await uploadedImagesFor(ctx.db, [img.url]))[img.url]?.alt).toBe("A harbour in the fog");
  });

  it("lists the orphans (nothing uses them, older than a day) and an admin deletes them in one step", async () => {
    const mod = await makeUser(ctx.db, { role: "moderator" });
    const admin = await makeUser(ctx.db, { role: "admin" });
    const tag = `orphan${Date.now()}`;
    const files = await Promise.all(
      ["old-unused", "old-used", "new-unused"].map(async (n) => ({ name: `${tag}-${n}.png`, bytes: await image() })),
    );
    const [oldUnused, oldUsed, newUnused] = await saveImages(ctx.db, mod.actor, files);
    if (!oldUnused || !oldUsed || !newUnused) throw new Error("three uploads expected");
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 60 * 60_000);
    await ctx.db.update(uploads).set({ createdAt: twoDaysAgo }).where(eq(uploads.id, oldUnused.id));
    await ctx.db.update(uploads).set({ createdAt: twoDaysAgo }).where(eq(uploads.id, oldUsed.id));
    await makePost(ctx.db, { featuredImageUrl: oldUsed.url, featuredImageAlt: "Used" });

    const listed = await listMediaLibrary(ctx.db, mod.actor, { q: tag });
    const orphanIds = listed.orphans.map((o) => o.id);
    expect(orphanIds).toContain(oldUnused.id);
    expect(orphanIds).not.toContain(oldUsed.id);
    expect(orphanIds).not.toContain(newUnused.id);
    expect(listed.canCleanOrphans).toBe(false);

    await expect(cleanOrphanedUploads(ctx.db, mod.actor)).rejects.toBeInstanceOf(ForbiddenError);
    expect(await cleanOrphanedUploads(ctx.db, admin.actor)).toBeGreaterThanOrEqual(1);
    const left = (await listMediaLibrary(ctx.db, admin.actor, { q: tag })).items.map((i) => i.id);
    expect(left.sort()).toEqual([oldUsed.id, newUnused.id].sort());
    expect((await listMediaLibrary(ctx.db, admin.actor, { q: tag })).orphans.map((o) => o.id)).not.toContain(oldUnused.id);
  });
});
