import { randomBytes } from "node:crypto";
import { asc, eq, inArray, lt, sql, type SQL } from "drizzle-orm";
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
import { releaseNativeMemorySoon } from "~/server/gc.server";
import { getStorage } from "~/server/storage.server";
import { processImage } from "./images.server";

export const BUCKET = "blog-images";
const UPLOAD_URL_PREFIX = "/uploads/";

export interface UploadedImage {
  id: string;
  url: string;
  alt: string;
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

interface StoredImage {
  key: string;
  contentType: string;
  byteSize: number;
  width: number;
  height: number;
  variants: { width: number; key: string; byteSize: number }[];
  originalName: string | null;
}

export interface ImageBatch {
  /** Checks, re-encodes and stores one image's files now, so only one image is in memory at a time. */
  add(file: { name: string; bytes: Buffer }): Promise<void>;
  /** Records every stored image in `uploads` (one transaction, audited), with `alt` as their alt text, and answers their URLs. */
  commit(db: Db, alt?: string): Promise<UploadedImage[]>;
  /** Deletes the files stored so far: a later file failed, so the batch stores nothing (all or nothing). */
  discard(): Promise<void>;
}

/** A batch of images uploaded together by `actor` (staff; checked before any byte is read). */
export function startImageBatch(actor: Actor | null): ImageBatch {
  authorizeUpload(actor);
  const stored: StoredImage[] = [];
  const storage = getStorage();
  return {
    async add(file) {
      if (stored.length >= LIMITS.imagesPerUpload) throw new ValidationError(`Upload at most ${LIMITS.imagesPerUpload} images at a time.`);
      const image = await processImage(file.bytes, file.name);
      const { stem, key } = keyFor(actor.id, image.ext);
      const entry: StoredImage = {
        key,
        contentType: image.contentType,
        byteSize: image.body.byteLength,
        width: image.width,
        height: image.height,
        variants: [],
        originalName: file.name.slice(0, 255) || null,
      };
      // Listed before the first write, so a failure halfway still leaves discard() every file to delete.
      stored.push(entry);
      await storage.put(key, image.body, image.contentType);
      for (const v of image.variants) {
        const variantKey = `${stem}-${v.width}w.webp`;
        entry.variants.push({ width: v.width, key: variantKey, byteSize: v.body.byteLength });
        await storage.put(variantKey, v.body, "image/webp");
      }
    },
    async commit(db, alt = "") {
      if (stored.length === 0) throw new ValidationError("Choose at least one image to upload.");
      const rows = await db.transaction(async (tx) => {
        const inserted = await tx
          .insert(uploads)
          .values(stored.map((image) => ({ userId: actor.id, bucket: BUCKET, storageKey: image.key, alt: alt.trim(), ...pickRow(image) })))
          .returning({ id: uploads.id, storageKey: uploads.storageKey });
        for (const row of inserted) {
          const image = stored.find((i) => i.key === row.storageKey);
          await recordAudit(tx, {
            actor,
            action: "upload.create",
            target: { type: "upload", id: row.id },
            summary: `${row.storageKey} (${image?.byteSize ?? 0} bytes)`,
          });
        }
        return inserted;
      });
      // The images' buffers and libvips' working memory are garbage now: handed back at once rather
      // than when the server next goes quiet (docs/decisions/0085-hit-path-shapes-and-memory.md).
      releaseNativeMemorySoon();
      return stored.map((image) => {
        logger.info({ userId: actor.id, key: image.key, bytes: image.byteSize }, "image uploaded");
        const id = rows.find((r) => r.storageKey === image.key)?.id;
        if (!id) throw new Error("upload row not returned");
        return {
          id,
          url: publicUploadUrl(image.key),
          alt: alt.trim(),
          srcSet: srcSetOf(image.variants, { key: image.key, width: image.width }),
          width: image.width,
          height: image.height,
        };
      });
    },
    async discard() {
      for (const image of stored.splice(0)) {
        for (const key of [image.key, ...image.variants.map((v) => v.key)]) await storage.delete(key).catch(() => undefined);
      }
      releaseNativeMemorySoon();
    },
  };
}

function pickRow(image: StoredImage) {
  const { contentType, byteSize, width, height, variants, originalName } = image;
  return { contentType, byteSize, width, height, variants, originalName };
}

/** Stores several images in memory at once (all or nothing): scripts and tests; requests stream through startImageBatch. */
export async function saveImages(db: Db, actor: Actor | null, files: { name: string; bytes: Buffer }[]): Promise<UploadedImage[]> {
  const batch = startImageBatch(actor);
  try {
    for (const file of files) await batch.add(file);
    return await batch.commit(db);
  } catch (error) {
    await batch.discard();
    throw error;
  }
}

/** What the pages show of one of our uploads: its srcset (when it has variants) and the alt text kept with it in the library. */
export interface UploadedImageView {
  srcSet: string | undefined;
  alt: string;
}

/** Our uploads among image URLs (others are absent), by each of their addresses: srcset and library alt text. */
export async function uploadedImagesFor(db: Db, urls: (string | null | undefined)[]): Promise<Record<string, UploadedImageView>> {
  const keys = [...new Set(urls.flatMap((u) => (u ? (uploadKeyOf(u) ?? []) : [])))];
  if (keys.length === 0) return {};
  const rows = await db
    .select({ storageKey: uploads.storageKey, width: uploads.width, variants: uploads.variants, alt: uploads.alt })
    .from(uploads)
    .where(inArray(uploads.storageKey, keys));
  const out: Record<string, UploadedImageView> = {};
  for (const row of rows) {
    const srcSet = row.variants.length === 0 ? undefined : srcSetOf(row.variants, { key: row.storageKey, width: row.width });
    for (const url of uploadUrlsOf(row.storageKey)) out[url] = { srcSet, alt: row.alt };
  }
  return out;
}

/** srcset strings for image URLs that point at our own uploads (others have none). */
export async function srcSetsFor(db: Db, urls: (string | null | undefined)[]): Promise<Record<string, string>> {
  const images = await uploadedImagesFor(db, urls);
  return Object.fromEntries(Object.entries(images).flatMap(([url, image]) => (image.srcSet ? [[url, image.srcSet]] : [])));
}

/**
 * Which of `keys` something still uses: every column that may hold an upload's URL (post content
 * and featured image, gallery items, revisions and autosaves, projects, testimonials, settings). A
 * URL always contains the storage key, whichever address form (site path, CDN URL, absolute site
 * URL) was used. One statement for a whole batch: each table is read once, against every key.
 */
export async function usedUploadKeys(db: Db, keys: readonly string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const texts: SQL[] = [
    sql`select ${blogPosts.content} as t from ${blogPosts}`,
    sql`select ${blogPosts.featuredImageUrl} from ${blogPosts}`,
    sql`select ${blogMedia.mediaUrl} from ${blogMedia}`,
    sql`select ${postRevisions.content} from ${postRevisions}`,
    sql`select ${postRevisions.featuredImageUrl} from ${postRevisions}`,
    sql`select ${postAutosaves.content} from ${postAutosaves}`,
    sql`select ${postAutosaves.featuredImageUrl} from ${postAutosaves}`,
    sql`select concat_ws(' ', ${projects.imageUrl}, ${projects.description}) from ${projects}`,
    sql`select ${testimonials.text} from ${testimonials}`,
    sql`select ${appSettings.value} from ${appSettings}`,
  ];
  const batch = sql.join(
    keys.map((key) => sql`(${key}::text)`),
    sql`, `,
  );
  const rows = await db
    .selectDistinct({ key: sql<string>`k.key` })
    .from(sql`(values ${batch}) as k(key) join (${sql.join(texts, sql` union all `)}) as texts on strpos(texts.t, k.key) > 0`);
  return new Set(rows.map((row) => row.key));
}

type UploadRow = Pick<typeof uploads.$inferSelect, "id" | "storageKey" | "variants">;

/** Deletes one unused upload's files and row. */
export async function deleteUpload(db: Db, row: UploadRow): Promise<void> {
  const storage = getStorage();
  // Files first: a crash here leaves the row, so the next attempt finds and deletes them again.
  for (const variant of row.variants) await storage.delete(variant.key);
  await storage.delete(row.storageKey);
  await db.delete(uploads).where(eq(uploads.id, row.id));
}

/** Deletes the rows' uploads nothing uses (one lookup for all of them); answers the keys deleted and the ids kept. */
async function deleteUnusedRows(db: Db, rows: UploadRow[]): Promise<{ deleted: string[]; kept: string[] }> {
  const used = await usedUploadKeys(
    db,
    rows.map((row) => row.storageKey),
  );
  const deleted: string[] = [];
  const kept: string[] = [];
  for (const row of rows) {
    if (used.has(row.storageKey)) {
      kept.push(row.id);
      continue;
    }
    await deleteUpload(db, row);
    deleted.push(row.storageKey);
  }
  return { deleted, kept };
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
  const { deleted } = await deleteUnusedRows(db, rows);
  if (deleted.length > 0) logger.info({ keys: deleted }, "unused uploads deleted");
  return deleted;
}

/** An upload nothing has used this long after it was made is an orphan (an abandoned draft's image). */
export const ORPHAN_UPLOAD_AGE_MS = 24 * 60 * 60_000;

/** The uploads older than a day that nothing uses (oldest first, at most `limit`): the orphans Media lists. */
export async function findOrphanedUploads(db: Db, { now = new Date(), limit = 500 } = {}) {
  const rows = await db
    .select({
      id: uploads.id,
      storageKey: uploads.storageKey,
      variants: uploads.variants,
      originalName: uploads.originalName,
      byteSize: uploads.byteSize,
    })
    .from(uploads)
    .where(lt(uploads.createdAt, new Date(now.getTime() - ORPHAN_UPLOAD_AGE_MS)))
    .orderBy(asc(uploads.createdAt), asc(uploads.id))
    .limit(limit);
  const used = await usedUploadKeys(
    db,
    rows.map((row) => row.storageKey),
  );
  return rows.filter((row) => !used.has(row.storageKey));
}

/**
 * Deletes the orphans (findOrphanedUploads) in one step; each is checked again just before it goes
 * (deleteUnusedRows), so one used meanwhile stays. Answers the storage keys deleted.
 */
export async function deleteOrphanedUploads(db: Db, { now = new Date() } = {}): Promise<string[]> {
  const { deleted } = await deleteUnusedRows(db, await findOrphanedUploads(db, { now }));
  if (deleted.length > 0) logger.info({ keys: deleted }, "orphaned uploads deleted");
  return deleted;
}

/**
 * One round of the orphan sweep: checks the `batch` uploads older than a day that were checked
 * longest ago (never checked first), deletes those nothing uses and stamps the rest, so each run
 * costs a bounded number of lookups and every upload is looked at again in turn.
 */
export async function sweepOrphanedUploads(db: Db, { now = new Date(), batch = 200 } = {}): Promise<string[]> {
  const rows = await db
    .select({ id: uploads.id, storageKey: uploads.storageKey, variants: uploads.variants })
    .from(uploads)
    .where(lt(uploads.createdAt, new Date(now.getTime() - ORPHAN_UPLOAD_AGE_MS)))
    .orderBy(sql`${uploads.checkedAt} asc nulls first`, asc(uploads.createdAt))
    .limit(batch);
  const { deleted, kept } = await deleteUnusedRows(db, rows);
  if (kept.length > 0) await db.update(uploads).set({ checkedAt: now }).where(inArray(uploads.id, kept));
  if (deleted.length > 0) logger.info({ keys: deleted }, "orphaned uploads deleted");
  return deleted;
}
