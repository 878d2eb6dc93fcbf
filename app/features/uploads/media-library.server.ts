import { desc, eq, sql } from "drizzle-orm";
import { canDeleteUpload, canUploadImages, type Actor } from "~/lib/permissions";
import { recordAudit } from "~/server/audit.server";
import { authorize } from "~/server/authorize.server";
import type { Db } from "~/server/db/client.server";
import { uploads, user } from "~/server/db/schema.server";
import { ConflictError, NotFoundError } from "~/server/errors.server";
import { logger } from "~/server/logger.server";
import { pageOffset, pageWindow } from "~/server/pagination.server";
import { MEDIA_SEARCH_MAX } from "./media-library";
import { deleteUpload, publicUploadUrl, usedUploadKeys } from "./uploads.server";

export const MEDIA_PER_PAGE = 24;
const DELETE_FORBIDDEN = "Only an admin or the person who uploaded it may delete an upload.";
export const UPLOAD_IN_USE = "This file is still used by a post, page or setting. Remove it there first, then delete it.";

/**
 * Admin → Media: the uploads, newest first, a page at a time, each with its size, dimensions, who
 * uploaded it, when, and whether anything uses it (looked up for the page's uploads only), plus the
 * storage all uploads take (originals and their resized variants). `q` matches the file's name.
 */
export async function listMediaLibrary(db: Db, actor: Actor | null, { q = "", page = 1 }: { q?: string; page?: number }) {
  authorize(actor, canUploadImages);
  const name = q.trim().slice(0, MEDIA_SEARCH_MAX);
  const where = name ? sql`${uploads.originalName} ilike ${`%${name.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}` : undefined;
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
    .select({
      id: uploads.id,
      storageKey: uploads.storageKey,
      originalName: uploads.originalName,
      contentType: uploads.contentType,
      byteSize: uploads.byteSize,
      width: uploads.width,
      height: uploads.height,
      createdAt: uploads.createdAt,
      userId: uploads.userId,
      uploader: user.name,
    })
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
    q: name,
    page: window.page,
    pageCount: window.pageCount,
    count,
    storageBytes: totals?.bytes ?? 0,
    items: rows.map(({ storageKey, userId, ...r }) => ({
      ...r,
      url: publicUploadUrl(storageKey),
      used: used.has(storageKey),
      canDelete: canDeleteUpload(actor, { userId }),
    })),
  };
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
  authorize(actor, (a) => canDeleteUpload(a, row), DELETE_FORBIDDEN);
  if ((await usedUploadKeys(db, [row.storageKey])).has(row.storageKey)) throw new ConflictError(UPLOAD_IN_USE);
  await deleteUpload(db, row);
  await recordAudit(db, { actor, action: "upload.delete", target: { type: "upload", id: row.id }, summary: row.name ?? row.storageKey });
  logger.info({ key: row.storageKey, by: actor.id }, "upload deleted from the media library");
}
