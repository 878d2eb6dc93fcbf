import { randomBytes } from "node:crypto";
import { eq, inArray, sql, type SQLWrapper } from "drizzle-orm";
import { canUploadImages, type Actor } from "~/lib/permissions";
import { recordAudit } from "~/server/audit.server";
import { authorize } from "~/server/authorize.server";
import type { Db } from "~/server/db/client.server";
import {
  appSettings,
  blogMedia,
  blogPosts,
  postAutosaves,
  postRevisions,
  projects,
  testimonials,
  uploads,
} from "~/server/db/schema.server";
import { ValidationError } from "~/server/errors.server";
import { LIMITS } from "~/server/limits.server";
import { logger } from "~/server/logger.server";
import { getEnv } from "~/server/env.server";
import { getStorage } from "~/server/storage.server";
import { processImage } from "./images.server";

export const BUCKET = "blog-images";
const UPLOAD_URL_PREFIX = "/uploads/";

export interface UploadedImage {
  id: string;
  url: string;
  srcSet: string;
  width: number;
  height: number;
}

/** Where browsers fetch uploads: S3_PUBLIC_URL (a CDN or the bucket) with S3, else the app's /uploads/. */
function publicUploadPrefix(): string {
  const env = getEnv();
  return env.S3_BUCKET && env.S3_PUBLIC_URL ? `${env.S3_PUBLIC_URL.replace(/\/+$/, "")}/` : UPLOAD_URL_PREFIX;
}

export function publicUploadUrl(bucketKey: string): string {
  return `${publicUploadPrefix()}${bucketKey}`;
}

/** The storage key of one of our uploads' URLs — the site path /uploads/… or the public (CDN) URL — else null. */
export function uploadKeyOf(url: string): string | null {
  for (const prefix of new Set([UPLOAD_URL_PREFIX, publicUploadPrefix()])) {
    if (url.startsWith(prefix) && url.length > prefix.length) return url.slice(prefix.length);
  }
  return null;
}

/** Both addresses of one upload: the site path (always served) and the public URL (when different). */
export function uploadUrlsOf(bucketKey: string): string[] {
  return [...new Set([`${UPLOAD_URL_PREFIX}${bucketKey}`, publicUploadUrl(bucketKey)])];
}

function srcSetOf(variants: { width: number; key: string }[], original: { key: string; width: number }): string {
  return [...variants.map((v) => `${publicUploadUrl(v.key)} ${v.width}w`), `${publicUploadUrl(original.key)} ${original.width}w`].join(
    ", ",
  );
}

/** Storage keys include the bucket: blog-images/{userId}/{timestamp}-{random}.{ext} (SPEC §7). */
export function keyFor(userId: string, ext: string, bucket: string = BUCKET): { stem: string; key: string } {
  const safeUser = userId.replace(/[^A-Za-z0-9_-]/g, "");
  const stem = `${bucket}/${safeUser}/${Date.now()}-${randomBytes(6).toString("hex")}`;
  return { stem, key: `${stem}.${ext}` };
}

/**
 * Who may upload. saveImages applies it; the upload route also asks before it reads a body of up to
 * 100 MB that would be refused anyway.
 */
export function authorizeUpload(actor: Actor | null | undefined): asserts actor is Actor {
  authorize(actor, canUploadImages, "You don't have permission to upload images.", "You must be logged in to upload images");
}

/** Validates every file first (all or nothing), then stores them and records them in `uploads`. */
export async function saveImages(db: Db, actor: Actor | null, files: { name: string; bytes: Buffer }[]): Promise<UploadedImage[]> {
  authorizeUpload(actor);
  const userId = actor.id;
  if (files.length === 0) throw new ValidationError("Choose at least one image to upload.");
  if (files.length > LIMITS.imagesPerUpload) throw new ValidationError(`Upload at most ${LIMITS.imagesPerUpload} images at a time.`);
  const processed = [];
  for (const file of files) processed.push({ file, image: await processImage(file.bytes, file.name) });
  const storage = getStorage();
  const results: UploadedImage[] = [];
  for (const { file, image } of processed) {
    const { stem, key } = keyFor(userId, image.ext);
    await storage.put(key, image.body, image.contentType);
    const variants: { width: number; key: string; byteSize: number }[] = [];
    for (const v of image.variants) {
      const variantKey = `${stem}-${v.width}w.webp`;
      await storage.put(variantKey, v.body, "image/webp");
      variants.push({ width: v.width, key: variantKey, byteSize: v.body.byteLength });
    }
    const [row] = await db.transaction(async (tx) => {
      const rows = await tx
        .insert(uploads)
        .values({
          userId,
          bucket: BUCKET,
          storageKey: key,
          contentType: image.contentType,
          byteSize: image.body.byteLength,
          width: image.width,
          height: image.height,
          variants,
          originalName: file.name.slice(0, 255) || null,
        })
        .returning({ id: uploads.id });
      await recordAudit(tx, {
        actor,
        action: "upload.create",
        target: { type: "upload", id: rows[0]?.id },
        summary: `${key} (${image.body.byteLength} bytes)`,
      });
      return rows;
    });
    if (!row) throw new Error("upload row not returned");
    logger.info({ userId, key, bytes: image.body.byteLength }, "image uploaded");
    results.push({
      id: row.id,
      url: publicUploadUrl(key),
      srcSet: srcSetOf(variants, { key, width: image.width }),
      width: image.width,
      height: image.height,
    });
  }
  return results;
}

/** srcset strings for image URLs that point at our own uploads (others have none). */
export async function srcSetsFor(db: Db, urls: (string | null | undefined)[]): Promise<Record<string, string>> {
  const keys = [...new Set(urls.flatMap((u) => (u ? (uploadKeyOf(u) ?? []) : [])))];
  if (keys.length === 0) return {};
  const rows = await db
    .select({ storageKey: uploads.storageKey, width: uploads.width, variants: uploads.variants })
    .from(uploads)
    .where(inArray(uploads.storageKey, keys));
  const out: Record<string, string> = {};
  for (const row of rows) {
    if (row.variants.length === 0) continue;
    for (const url of uploadUrlsOf(row.storageKey)) out[url] = srcSetOf(row.variants, { key: row.storageKey, width: row.width });
  }
  return out;
}

/**
 * Every column that may hold an upload's URL (post content and featured image, gallery items,
 * revisions and autosaves, projects, testimonials, settings). A URL always contains the storage
 * key, whichever address form (site path, CDN URL, absolute site URL) was used.
 */
async function isUploadUsed(db: Db, key: string): Promise<boolean> {
  const has = (column: SQLWrapper) => sql`strpos(${column}, ${key}) > 0`;
  const checks = [
    db
      .select({ one: sql`1` })
      .from(blogPosts)
      .where(sql`${has(blogPosts.content)} or ${has(sql`coalesce(${blogPosts.featuredImageUrl}, '')`)}`),
    db
      .select({ one: sql`1` })
      .from(blogMedia)
      .where(has(blogMedia.mediaUrl)),
    db
      .select({ one: sql`1` })
      .from(postRevisions)
      .where(sql`${has(postRevisions.content)} or ${has(sql`coalesce(${postRevisions.featuredImageUrl}, '')`)}`),
    db
      .select({ one: sql`1` })
      .from(postAutosaves)
      .where(sql`${has(postAutosaves.content)} or ${has(postAutosaves.featuredImageUrl)}`),
    db
      .select({ one: sql`1` })
      .from(projects)
      .where(sql`${has(sql`concat_ws(' ', ${projects.imageUrl}, ${projects.description})`)}`),
    db
      .select({ one: sql`1` })
      .from(testimonials)
      .where(has(testimonials.text)),
    db
      .select({ one: sql`1` })
      .from(appSettings)
      .where(has(appSettings.value)),
  ];
  for (const check of checks) {
    if ((await check.limit(1)).length > 0) return true;
  }
  return false;
}

/**
 * Deletes the uploads among `urls` that nothing uses any more: the stored original and its
 * variants, then the `uploads` row. Only files the `uploads` table knows are touched. Idempotent
 * (a job may run twice): an upload already gone is skipped. Returns the storage keys deleted.
 */
export async function deleteUnusedUploads(db: Db, urls: readonly string[]): Promise<string[]> {
  const keys = [...new Set(urls.flatMap((u) => uploadKeyOf(u) ?? []))];
  if (keys.length === 0) return [];
  const rows = await db
    .select({ id: uploads.id, storageKey: uploads.storageKey, variants: uploads.variants })
    .from(uploads)
    .where(inArray(uploads.storageKey, keys));
  const storage = getStorage();
  const deleted: string[] = [];
  for (const row of rows) {
    if (await isUploadUsed(db, row.storageKey)) continue;
    // Files first: a crash here leaves the row, so the next attempt finds and deletes them again.
    for (const variant of row.variants) await storage.delete(variant.key);
    await storage.delete(row.storageKey);
    await db.delete(uploads).where(eq(uploads.id, row.id));
    deleted.push(row.storageKey);
  }
  if (deleted.length > 0) logger.info({ keys: deleted }, "unused uploads deleted");
  return deleted;
}
