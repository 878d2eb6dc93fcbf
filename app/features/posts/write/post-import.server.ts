import { eq, sql } from "drizzle-orm";
import { canCreatePost, type Actor } from "~/lib/permissions";
import { slugify, slugProblem } from "~/lib/slug";
import type { MediaKind } from "~/features/media/media";
import { recordAudit, type AuditActor } from "~/server/audit.server";
import { authorize } from "~/server/authorize.server";
import { bumpContentVersion } from "~/server/content-version.server";
import type { Db } from "~/server/db/client.server";
import { blogMedia, blogPosts } from "~/server/db/schema.server";
import { NotFoundError, ValidationError } from "~/server/errors.server";
import { POST_MESSAGES } from "./post-schema";
import {
  afterPostWrite,
  isReservedSlug,
  isSlugTaken,
  renderedColumns,
  revisionOf,
  slugCandidates,
  type PostFields,
  type PostWrite,
} from "./post-write.server";
import { syncPublishJob } from "./scheduling.server";

/**
 * Posts brought in from another system (the importers of app/features/imports). Unlike createPost
 * they keep the source's dates, address and author, and they send no subscriber emails: these posts
 * are old news. The caller has validated the fields with the post schema's rules.
 */
export interface ImportedPost extends PostFields {
  /** The address it had; kept when it is a valid slug no other post uses, else one from the title. */
  slug: string | null;
  authorId: string;
  createdAt: Date;
  updatedAt: Date;
  publishedAt: Date | null;
  /** A draft to publish at this (future) time. */
  scheduledAt: Date | null;
}

/** Runs in the post's transaction, e.g. to record where the post came from. */
export type AfterWrite = (tx: Db, postId: string) => Promise<void>;

const IMPORT_FORBIDDEN = "You don't have permission to import posts.";

async function freeSlug(db: Db, wanted: string | null, title: string): Promise<string> {
  if (wanted && !slugProblem(wanted) && !isReservedSlug(wanted) && !(await isSlugTaken(db, wanted))) return wanted;
  const base = slugify(title);
  if (!base) throw new ValidationError(POST_MESSAGES.titleNoSlug);
  for (const slug of slugCandidates(base)) if (!(await isSlugTaken(db, slug))) return slug;
  throw new ValidationError("Could not find a free address for this title.");
}

/** A published post has no schedule. */
function scheduleOf(post: ImportedPost): Date | null {
  return post.published ? null : post.scheduledAt;
}

async function columnsOf(db: Db, post: ImportedPost) {
  return { ...(await renderedColumns(db, post)), scheduledAt: scheduleOf(post), updatedAt: post.updatedAt };
}

/** The step after an imported post's row write, as the audit row says it; no subscriber emails, no share card ahead. */
function afterImport(
  tx: Db,
  post: ImportedPost,
  write: Pick<PostWrite, "before" | "address"> & { postId: string; audit: AuditActor; summary: string },
) {
  return afterPostWrite(tx, {
    revision: revisionOf(write.postId, post, post.authorId),
    before: write.before,
    after: { published: post.published, scheduledAt: scheduleOf(post), category: post.category },
    address: write.address,
    syncSchedule: syncPublishJob,
    announce: null,
    audit: { actor: write.audit, action: "post.import", summary: write.summary },
  });
}

/** Creates an imported post (and whatever `after` writes) in one transaction. */
export async function createImportedPost(
  db: Db,
  actor: Actor | null,
  post: ImportedPost,
  after: AfterWrite,
): Promise<{ id: string; slug: string }> {
  authorize(actor, canCreatePost, IMPORT_FORBIDDEN);
  const slug = await freeSlug(db, post.slug, post.title);
  const columns = await columnsOf(db, post);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(blogPosts)
      .values({
        ...columns,
        slug,
        authorId: post.authorId,
        createdAt: post.createdAt,
        publishedAt: post.published ? (post.publishedAt ?? post.createdAt) : post.publishedAt,
      })
      .returning({ id: blogPosts.id, slug: blogPosts.slug });
    if (!row) throw new Error("insert returned no row");
    await after(tx, row.id);
    const summary = `${post.title} (/7fs/${post.category}/${slug})`;
    await afterImport(tx, post, { postId: row.id, before: null, address: { slug }, audit: actor, summary });
    return row;
  });
}

/** Brings an earlier import up to date with its source; the post keeps its address here. */
export async function updateImportedPost(
  db: Db,
  actor: Actor | null,
  postId: string,
  post: ImportedPost,
  after: AfterWrite,
): Promise<{ id: string; slug: string }> {
  authorize(actor, canCreatePost, IMPORT_FORBIDDEN);
  const [current] = await db
    .select({ slug: blogPosts.slug, published: blogPosts.published, scheduledAt: blogPosts.scheduledAt })
    .from(blogPosts)
    .where(eq(blogPosts.id, postId))
    .limit(1);
  if (!current) throw new NotFoundError("That post no longer exists.");
  const columns = await columnsOf(db, post);
  await db.transaction(async (tx) => {
    await tx
      .update(blogPosts)
      .set({
        ...columns,
        publishedAt:
          post.publishedAt ??
          (post.published ? sql`coalesce(${blogPosts.publishedAt}, ${post.createdAt.toISOString()}::timestamptz)` : undefined),
        version: sql`${blogPosts.version} + 1`,
      })
      .where(eq(blogPosts.id, postId));
    await after(tx, postId);
    await afterImport(tx, post, { postId, before: current, audit: actor, summary: `${post.title} (updated)` });
  });
  return { id: postId, slug: current.slug };
}

export async function importedPostExists(db: Db, postId: string): Promise<boolean> {
  const [row] = await db.select({ id: blogPosts.id }).from(blogPosts).where(eq(blogPosts.id, postId)).limit(1);
  return row !== undefined;
}

export interface ImportedMedia {
  postId: string;
  mediaType: MediaKind;
  mediaUrl: string;
  caption: string | null;
  displayOrder: number;
}

/** Creates (`mediaId` null) or updates one media item of an imported post, in one transaction with `after`. */
export async function writeImportedMedia(
  db: Db,
  actor: Actor | null,
  mediaId: string | null,
  media: ImportedMedia,
  after: AfterWrite,
): Promise<string> {
  authorize(actor, canCreatePost, IMPORT_FORBIDDEN);
  return db.transaction(async (tx) => {
    const [row] = mediaId
      ? await tx.update(blogMedia).set(media).where(eq(blogMedia.id, mediaId)).returning({ id: blogMedia.id })
      : await tx.insert(blogMedia).values(media).returning({ id: blogMedia.id });
    if (!row) throw new NotFoundError("That media item no longer exists.");
    await after(tx, row.id);
    await bumpContentVersion(tx);
    await recordAudit(tx, {
      actor,
      action: "post.media.import",
      target: { type: "post", id: media.postId },
      summary: media.mediaUrl.slice(0, 200),
    });
    return row.id;
  });
}
