import { and, desc, eq, like, notLike, or, sql, type SQL } from "drizzle-orm";
import { canManageUpload, canUploadImages, type Actor } from "~/lib/permissions";
import { recordAudit } from "~/server/audit.server";
import { authorize } from "~/server/authorize.server";
import { bumpContentVersion } from "~/server/content-version.server";
import { rerenderPostsShowing } from "~/features/posts/write/posts.server";
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
  user,
} from "~/server/db/schema.server";
import { SITE_SETTINGS_KEY } from "~/features/settings/settings.server";
import { postPath, type Category } from "~/lib/categories";
import { ConflictError, NotFoundError } from "~/server/errors.server";
import { logger } from "~/server/logger.server";
import { pageOffset, pageWindow } from "~/server/pagination.server";
import { MEDIA_SEARCH_MAX, type MediaKindFilter } from "./media-library";
import { deleteOrphanedUploads, deleteUpload, findOrphanedUploads, publicUploadUrl, usedUploadKeys } from "./uploads.server";

export const MEDIA_PER_PAGE = 24;

/** One place an upload is used, as the media library names it: a link where the place can be edited. */
export interface UploadUse {
  label: string;
  href: string | null;
}

/** The site settings that hold a file's address, by their field: named as the Settings page labels them. */
const SETTING_LABELS: Record<string, string> = {
  portraitUrl: "Settings: Portrait",
  logoUrl: "Settings: Logo mark",
  faviconUrl: "Settings: Favicon",
  socialImageUrl: "Settings: Default social image",
  resumeUrl: "Settings: Resume link",
};

function keyValues(keys: readonly string[]): SQL {
  return sql`(values ${sql.join(
    keys.map((key) => sql`(${key}::text)`),
    sql`, `,
  )}) as k(key)`;
}

/** The places of `settingsKey`'s stored value that hold `key`: a site setting by its label, any other row by its key. */
function settingUses(settingsKey: string, value: string, key: string): UploadUse[] {
  if (settingsKey !== SITE_SETTINGS_KEY) return [{ label: `Page texts and settings (${settingsKey})`, href: null }];
  let fields: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(value);
    if (parsed && typeof parsed === "object") fields = parsed as Record<string, unknown>;
  } catch {
    // Not JSON: named as a whole below.
  }
  const named = Object.entries(fields).flatMap(([field, v]) =>
    typeof v === "string" && v.includes(key) ? [{ label: SETTING_LABELS[field] ?? "Settings", href: "/admin/settings" }] : [],
  );
  return named.length > 0 ? named : [{ label: "Settings", href: "/admin/settings" }];
}

/**
 * Where each of `keys` is used, by name: posts (their body, featured image or gallery; or only an
 * earlier revision or an unsaved autosave of one), projects, testimonials and settings, each linked
 * where it can be edited. The same columns as usedUploadKeys, so an upload is "in use" exactly when
 * it has a place here; one statement per kind of place, for the whole page of uploads.
 */
export async function uploadUsesOf(db: Db, keys: readonly string[]): Promise<Map<string, UploadUse[]>> {
  const uses = new Map<string, UploadUse[]>();
  if (keys.length === 0) return uses;
  const add = (key: string, use: UploadUse) => {
    const list = uses.get(key) ?? [];
    if (!list.some((u) => u.label === use.label)) list.push(use);
    uses.set(key, list);
  };
  const postTexts = sql`select ${blogPosts.id} as post_id, ${blogPosts.content} as t, true as current from ${blogPosts}
    union all select ${blogPosts.id}, ${blogPosts.featuredImageUrl}, true from ${blogPosts}
    union all select ${blogMedia.postId}, ${blogMedia.mediaUrl}, true from ${blogMedia}
    union all select ${postRevisions.postId}, concat_ws(' ', ${postRevisions.content}, ${postRevisions.featuredImageUrl}), false from ${postRevisions}
    union all select ${postAutosaves.postId}, concat_ws(' ', ${postAutosaves.content}, ${postAutosaves.featuredImageUrl}), false from ${postAutosaves}`;
  const [posts, drafts, places, settings] = await Promise.all([
    db
      .select({
        key: sql<string>`k.key`,
        title: sql<string>`p.title`,
        category: sql<Category>`p.category`,
        slug: sql<string>`p.slug`,
        current: sql<boolean>`bool_or(src.current)`,
      })
      .from(sql`${keyValues(keys)} join (${postTexts}) as src on strpos(src.t, k.key) > 0 join ${blogPosts} p on p.id = src.post_id`)
      .groupBy(sql`k.key, p.id, p.title, p.category, p.slug`)
      .orderBy(sql`p.title`),
    db
      .selectDistinct({ key: sql<string>`k.key` })
      .from(
        sql`${keyValues(keys)} join ${postAutosaves} a on a.post_id is null and strpos(concat_ws(' ', a.content, a.featured_image_url), k.key) > 0`,
      ),
    db.select({ key: sql<string>`k.key`, kind: sql<"project" | "testimonial">`src.kind`, name: sql<string>`src.name` }).from(
      sql`${keyValues(keys)} join (
          select 'project' as kind, ${projects.title} as name, concat_ws(' ', ${projects.imageUrl}, ${projects.description}) as t from ${projects}
          union all select 'testimonial', ${testimonials.name}, ${testimonials.text} from ${testimonials}
        ) as src on strpos(src.t, k.key) > 0`,
    ),
    db
      .select({ key: sql<string>`k.key`, settingsKey: sql<string>`s.key`, value: sql<string>`s.value` })
      .from(sql`${keyValues(keys)} join ${appSettings} s on strpos(s.value, k.key) > 0`),
  ]);
  for (const row of posts) {
    const label = row.current ? `Post “${row.title}”` : `An earlier revision or autosave of “${row.title}”`;
    add(row.key, { label, href: `${postPath(row.category, row.slug)}/edit` });
  }
  for (const row of drafts) add(row.key, { label: "An unsaved new post (autosave)", href: null });
  for (const row of places) {
    if (row.kind === "project") add(row.key, { label: `Project “${row.name}”`, href: "/admin/projects" });
    else add(row.key, { label: `Testimonial by ${row.name}`, href: "/admin/testimonials" });
  }
  for (const row of settings) for (const use of settingUses(row.settingsKey, row.value, row.key)) add(row.key, use);
  return uses;
}
const ORPHANS_FORBIDDEN = "Only an admin may delete the uploads nothing uses.";
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
  const used = await uploadUsesOf(
    db,
    rows.map((r) => r.storageKey),
  );
  const orphans = await findOrphanedUploads(db);
  return {
    orphans: orphans.map((o) => ({ id: o.id, name: o.originalName ?? o.storageKey, byteSize: o.byteSize })),
    canCleanOrphans: actor.role === "admin",
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
      uses: used.get(storageKey) ?? [],
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

/** Deletes every orphan (an upload nothing uses, older than a day) in one step: admins only, audited. */
export async function cleanOrphanedUploads(db: Db, actor: Actor | null): Promise<number> {
  authorize(actor, (a) => a.role === "admin", ORPHANS_FORBIDDEN);
  const deleted = await deleteOrphanedUploads(db);
  if (deleted.length > 0)
    await recordAudit(db, {
      actor,
      action: "upload.orphans",
      target: { type: "upload", id: null },
      summary: `${deleted.length} unused uploads deleted`,
    });
  return deleted.length;
}
