import { and, desc, eq, like, notLike, or, sql, type SQL } from "drizzle-orm";
import { canManageUpload, canUploadImages, type Actor } from "~/lib/permissions";
import { recordAudit } from "~/server/audit.server";
import { authorize } from "~/server/authorize.server";
import { bumpContentVersion } from "~/server/content-version.server";
import { rerenderPostsShowing } from "~/features/posts/write/posts.server";
import type { Db } from "~/server/db/client.server";
import { uploads, user } from "~/server/db/schema.server";
import { ConflictError, NotFoundError } from "~/server/errors.server";
import { logger } from "~/server/logger.server";
import { pageOffset, pageWindow } from "~/server/pagination.server";
import { MEDIA_SEARCH_MAX, type MediaKindFilter } from "./media-library";
import { deleteUpload, publicUploadUrl, usedUploadKeys } from "./uploads.server";

export const MEDIA_PER_PAGE = 24;
const DELETE_FORBIDDEN = "Only an admin or the person who uploaded it may delete an upload.";
const EDIT_FORBIDDEN = "Only an admin or the person who uploaded it may change an upload's alt text.";
export const UPLOAD_IN_USE = "This file is still used by a post, page or setting. Remove it there first, then delete it.";

/** `%…%` for ILIKE: the search's own `%`, `_` and `\\` match themselves. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Images are every `image/*` upload (post images, portrait, logo, favicon); other files are the rest (the resume). */
function kindCondition(kind: MediaKindFilter | null): SQL | undefined {
  if (kind === "images") return like(uploads.contentType, "image/%");
  if (kind === "other") return notLike(uploads.contentType, "image/%");
  return undefined;
}

/** `q` matches the file's name or its alt text; `kind` narrows to images or other files. */
function libraryWhere(q: string, kind: MediaKindFilter | null): SQL | undefined {
  const search = q
    ? or(sql`${uploads.originalName} ilike ${containsPattern(q)}`, sql`${uploads.alt} ilike ${containsPattern(q)}`)
    : undefined;
  return and(search, kindCondition(kind));
}

const libraryColumns = {
  id: uploads.id,
  storageKey: uploads.storageKey,
  originalName: uploads.originalName,
  alt: uploads.alt,
  contentType: uploads.contentType,
  byteSize: uploads.byteSize,
  width: uploads.width,
  height: uploads.height,
  createdAt: uploads.createdAt,
  userId: uploads.userId,
};

/**
 * Admin → Media: the uploads, newest first, a page at a time, each with its size, dimensions, alt
 * text, who uploaded it, when, and whether anything uses it (looked up for the page's uploads only),
 * plus the storage all uploads take (originals and their resized variants). `q` matches the file's
 * name or alt text; `kind` keeps images or other files.
 */
export async function listMediaLibrary(
  db: Db,
  actor: Actor | null,
  { q = "", page = 1, kind = null }: { q?: string; page?: number; kind?: MediaKindFilter | null },
) {
  authorize(actor, canUploadImages);
  const text = q.trim().slice(0, MEDIA_SEARCH_MAX);
  const where = libraryWhere(text, kind);
  const [totals] = await db
    .select({
      count: sql<number>`count(*)::int`,
      bytes: sql<number>`coalesce(sum(${uploads.byteSize} + (select coalesce(sum((v->>'byteSize')::bigint), 0) from jsonb_array_elements(${uploads.variants}) v)), 0)::float8`,
    })
    .from(uploads)
    .where(where);
  const count = totals?.count ?? 0;
  const offset = pageOffset(page, MEDIA_PER_PAGE);
  const window = pageWindow(count, page, MEDIA_PER_PAGE);
  const rows = await db
    .select({ ...libraryColumns, uploader: user.name })
    .from(uploads)
    .leftJoin(user, eq(user.id, uploads.userId))
    .where(where)
    .orderBy(desc(uploads.createdAt), desc(uploads.id))
    .limit(MEDIA_PER_PAGE)
    .offset(offset);
  const used = await usedUploadKeys(
    db,
    rows.map((r) => r.storageKey),
  );
  return {
    q: text,
    kind,
    page: window.page,
    pageCount: window.pageCount,
    count,
    storageBytes: totals?.bytes ?? 0,
    items: rows.map(({ storageKey, userId, ...r }) => ({
      ...r,
      isImage: r.contentType.startsWith("image/"),
      url: publicUploadUrl(storageKey),
      used: used.has(storageKey),
      canManage: canManageUpload(actor, { userId }),
    })),
  };
}

/** How many images the editor's "Pick from library" lists at a time (the newest first). */
export const PICKER_LIMIT = 24;

/**
 * The editor's "Pick from library": the newest images, or those whose name or alt text holds `q`,
 * each with its alt text (the default alt when it is inserted). Only images: nothing else goes in a post.
 */
export async function listPickableImages(db: Db, actor: Actor | null, { q = "" }: { q?: string }) {
  authorize(actor, canUploadImages);
  const rows = await db
    .select({
      id: uploads.id,
      storageKey: uploads.storageKey,
      name: uploads.originalName,
      alt: uploads.alt,
      width: uploads.width,
      height: uploads.height,
    })
    .from(uploads)
    .where(libraryWhere(q.trim().slice(0, MEDIA_SEARCH_MAX), "images"))
    .orderBy(desc(uploads.createdAt), desc(uploads.id))
    .limit(PICKER_LIMIT);
  return rows.map(({ storageKey, ...r }) => ({ ...r, url: publicUploadUrl(storageKey) }));
}

/**
 * Sets one upload's alt text: kept with the file, it is the alt every insertion of it starts from and
 * the alt every place showing it uses (shownAlt: post bodies, featured images, galleries). The bodies
 * showing it are rendered again and the content version bumped in the same transaction, so cached
 * pages follow at once. Audited.
 */
export async function setUploadAlt(db: Db, actor: Actor | null, id: string, alt: string): Promise<void> {
  authorize(actor, canUploadImages);
  const [row] = await db
    .select({ userId: uploads.userId, name: uploads.originalName, storageKey: uploads.storageKey })
    .from(uploads)
    .where(eq(uploads.id, id));
  if (!row) throw new NotFoundError("That upload no longer exists.");
  authorize(actor, (a) => canManageUpload(a, row), EDIT_FORBIDDEN);
  await db.transaction(async (tx) => {
    await tx.update(uploads).set({ alt: alt.trim() }).where(eq(uploads.id, id));
    await rerenderPostsShowing(tx, row.storageKey);
    await bumpContentVersion(tx);
    await recordAudit(tx, { actor, action: "upload.alt", target: { type: "upload", id }, summary: row.name ?? row.storageKey });
  });
}

/**
 * Deletes one upload from the library: its files and row. Refused while anything uses it (a post, a
 * revision, a page or a setting: the orphan sweep's own test), so no page loses an image it shows.
 */
export async function deleteMediaUpload(db: Db, actor: Actor | null, id: string): Promise<void> {
  authorize(actor, canUploadImages);
  const [row] = await db
    .select({
      id: uploads.id,
      storageKey: uploads.storageKey,
      variants: uploads.variants,
      userId: uploads.userId,
      name: uploads.originalName,
    })
    .from(uploads)
    .where(eq(uploads.id, id));
  if (!row) throw new NotFoundError("That upload no longer exists.");
  authorize(actor, (a) => canManageUpload(a, row), DELETE_FORBIDDEN);
  if ((await usedUploadKeys(db, [row.storageKey])).has(row.storageKey)) throw new ConflictError(UPLOAD_IN_USE);
  await deleteUpload(db, row);
  await recordAudit(db, { actor, action: "upload.delete", target: { type: "upload", id: row.id }, summary: row.name ?? row.storageKey });
  logger.info({ key: row.storageKey, by: actor.id }, "upload deleted from the media library");
}
