import { and, asc, count, desc, eq, gt } from "drizzle-orm";
import type { Category } from "~/lib/categories";
import { canCreatePost, canDeletePost, canUpdatePost, canViewDrafts, type Actor } from "~/lib/permissions";
import { authorize } from "~/server/authorize.server";
import { slugCandidate, slugify } from "~/lib/slug";
import { bumpContentVersion } from "~/server/content-version.server";
import type { Db } from "~/server/db/client.server";
import { blogMedia, blogPosts } from "~/server/db/schema.server";
import { NotFoundError, parseOrThrow, UnauthorizedError, ValidationError } from "~/server/errors.server";
import { logger } from "~/server/logger.server";
import { pageWindow } from "~/server/pagination.server";
import type { AdminFilter } from "./admin-filters";
import { POST_MESSAGES, postInputSchema, type PostInput } from "./post-schema";

export const POSTS_PER_PAGE = 12;
const SAVE_FORBIDDEN = "You don't have permission to save posts.";
const DELETE_FORBIDDEN = "Only an admin or the post's author may delete it.";
/** Slugs that would collide with our own routes under /7fs/{category}/. */
const RESERVED_SLUGS = new Set(["new", "rss-xml"]);
/** A second identical submission by the same author within this window returns the first post. */
const DUPLICATE_WINDOW_MS = 30_000;

const cardColumns = {
  id: blogPosts.id,
  title: blogPosts.title,
  slug: blogPosts.slug,
  excerpt: blogPosts.excerpt,
  featuredImageUrl: blogPosts.featuredImageUrl,
  category: blogPosts.category,
  createdAt: blogPosts.createdAt,
};

/** Published posts of one category, newest first, one page at a time (a page past the last: NotFoundError). */
export async function listPublishedPosts(db: Db, category: Category, page: number) {
  const where = and(eq(blogPosts.category, category), eq(blogPosts.published, true));
  const [totalRow] = await db.select({ n: count() }).from(blogPosts).where(where);
  const total = totalRow?.n ?? 0;
  const window = pageWindow(total, page, POSTS_PER_PAGE);
  const posts = await db
    .select(cardColumns)
    .from(blogPosts)
    .where(where)
    .orderBy(desc(blogPosts.createdAt), desc(blogPosts.id))
    .limit(window.limit)
    .offset(window.offset);
  return { posts, total, page: window.page, pageCount: window.pageCount };
}

/** A slug worth looking up: PostgreSQL refuses NUL in text (that would be a 500), and no slug is that long. */
function isLookupSlug(slug: string): boolean {
  return slug.length > 0 && slug.length <= 300 && !slug.includes("\u0000");
}

export async function getPostBySlug(db: Db, slug: string) {
  if (!isLookupSlug(slug)) return null;
  const [post] = await db
    .select({
      id: blogPosts.id,
      title: blogPosts.title,
      slug: blogPosts.slug,
      content: blogPosts.content,
      excerpt: blogPosts.excerpt,
      featuredImageUrl: blogPosts.featuredImageUrl,
      category: blogPosts.category,
      published: blogPosts.published,
      authorId: blogPosts.authorId,
      createdAt: blogPosts.createdAt,
      updatedAt: blogPosts.updatedAt,
    })
    .from(blogPosts)
    .where(eq(blogPosts.slug, slug))
    .limit(1);
  if (!post) return null;
  const media = await db
    .select({ id: blogMedia.id, mediaType: blogMedia.mediaType, mediaUrl: blogMedia.mediaUrl, caption: blogMedia.caption, uploadId: blogMedia.uploadId })
    .from(blogMedia)
    .where(eq(blogMedia.postId, post.id))
    .orderBy(asc(blogMedia.displayOrder), asc(blogMedia.createdAt));
  return { ...post, media };
}

export type PostWithMedia = NonNullable<Awaited<ReturnType<typeof getPostBySlug>>>;

/** A post as a reader may see it: drafts only for staff; otherwise null (→ 'Article Not Found'). */
export async function getReadablePost(db: Db, slug: string, actor: Actor | null): Promise<PostWithMedia | null> {
  const post = await getPostBySlug(db, slug);
  if (!post) return null;
  if (!post.published && !canViewDrafts(actor)) return null;
  return post;
}

export function parsePostInput(input: unknown): PostInput {
  return parseOrThrow(postInputSchema, input);
}

function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e && typeof e === "object"; e = "cause" in e ? e.cause : undefined) {
    if ("code" in e && e.code === "23505") return true;
  }
  return false;
}

async function findDuplicate(db: Db, authorId: string, input: PostInput) {
  const [dup] = await db
    .select({ id: blogPosts.id, slug: blogPosts.slug, category: blogPosts.category })
    .from(blogPosts)
    .where(
      and(
        eq(blogPosts.authorId, authorId),
        eq(blogPosts.title, input.title),
        eq(blogPosts.content, input.content),
        eq(blogPosts.category, input.category),
        gt(blogPosts.createdAt, new Date(Date.now() - DUPLICATE_WINDOW_MS)),
      ),
    )
    .limit(1);
  return dup ?? null;
}

async function replaceMedia(tx: Db, postId: string, media: PostInput["media"]) {
  await tx.delete(blogMedia).where(eq(blogMedia.postId, postId));
  if (media.length === 0) return;
  await tx.insert(blogMedia).values(
    media.map((m, i) => ({ postId, mediaType: m.mediaType, mediaUrl: m.mediaUrl, caption: m.caption ?? null, uploadId: m.uploadId ?? null, displayOrder: i })),
  );
}

/**
 * Creates a post with a slug from its title (SPEC §4); on a clash the slug gets -2, -3, ... The unique
 * index decides under concurrency: a losing insert retries with the next candidate. A double submit
 * (same author, title, content within 30 s) returns the first post instead of creating a second.
 */
export async function createPost(db: Db, author: Actor | null, raw: unknown): Promise<{ id: string; slug: string; category: Category; duplicate: boolean }> {
  authorize(author, canCreatePost, SAVE_FORBIDDEN);
  const input = parsePostInput(raw);
  const base = slugify(input.title);
  if (!base) throw new ValidationError(POST_MESSAGES.titleNoSlug, { title: [POST_MESSAGES.titleNoSlug] });
  const existing = await findDuplicate(db, author.id, input);
  if (existing) return { ...existing, duplicate: true };
  for (let n = 1; n <= 1000; n++) {
    const slug = slugCandidate(base, n);
    if (RESERVED_SLUGS.has(slug)) continue;
    const [taken] = await db.select({ id: blogPosts.id }).from(blogPosts).where(eq(blogPosts.slug, slug)).limit(1);
    if (taken) {
      // A concurrent double submit may have committed between the first duplicate check and this read.
      const dup = await findDuplicate(db, author.id, input);
      if (dup) return { ...dup, duplicate: true };
      continue;
    }
    try {
      const created = await db.transaction(async (tx) => {
        const [row] = await tx
          .insert(blogPosts)
          .values({
            title: input.title,
            slug,
            content: input.content,
            excerpt: input.excerpt,
            featuredImageUrl: input.featuredImageUrl,
            category: input.category,
            published: input.published,
            authorId: author.id,
          })
          .returning({ id: blogPosts.id, slug: blogPosts.slug, category: blogPosts.category });
        if (!row) throw new Error("insert returned no row");
        await replaceMedia(tx, row.id, input.media);
        await bumpContentVersion(tx);
        return row;
      });
      logger.info({ postId: created.id, slug, authorId: author.id }, "post created");
      return { ...created, duplicate: false };
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const dup = await findDuplicate(db, author.id, input);
      if (dup) return { ...dup, duplicate: true };
    }
  }
  throw new ValidationError("Could not find a free address for this title; please change the title.");
}

/** Updates a post found by its slug; the slug never changes (SPEC §4). */
export async function updatePost(db: Db, actor: Actor | null, slug: string, raw: unknown): Promise<{ id: string; slug: string; category: Category }> {
  authorize(actor, canUpdatePost, SAVE_FORBIDDEN);
  const input = parsePostInput(raw);
  if (!isLookupSlug(slug)) throw new NotFoundError("That post no longer exists.");
  const [post] = await db.select({ id: blogPosts.id }).from(blogPosts).where(eq(blogPosts.slug, slug)).limit(1);
  if (!post) throw new NotFoundError("That post no longer exists.");
  await db.transaction(async (tx) => {
    await tx
      .update(blogPosts)
      .set({
        title: input.title,
        content: input.content,
        excerpt: input.excerpt,
        featuredImageUrl: input.featuredImageUrl,
        category: input.category,
        published: input.published,
        updatedAt: new Date(),
      })
      .where(eq(blogPosts.id, post.id));
    await replaceMedia(tx, post.id, input.media);
    await bumpContentVersion(tx);
  });
  logger.info({ postId: post.id, slug, by: actor.id }, "post updated");
  return { id: post.id, slug, category: input.category };
}

/** Deletes a post and its media rows; only admins or the post's author (canDeletePost). */
export async function deletePost(db: Db, actor: Actor | null, slug: string): Promise<{ category: Category }> {
  if (!actor) throw new UnauthorizedError();
  if (!isLookupSlug(slug)) throw new NotFoundError("That post no longer exists.");
  const [post] = await db.select({ id: blogPosts.id, authorId: blogPosts.authorId, category: blogPosts.category }).from(blogPosts).where(eq(blogPosts.slug, slug)).limit(1);
  if (!post) throw new NotFoundError("That post no longer exists.");
  authorize(actor, (a) => canDeletePost(a, post), DELETE_FORBIDDEN);
  await db.transaction(async (tx) => {
    await tx.delete(blogMedia).where(eq(blogMedia.postId, post.id));
    await tx.delete(blogPosts).where(eq(blogPosts.id, post.id));
    await bumpContentVersion(tx);
  });
  logger.info({ postId: post.id, slug, by: actor.id }, "post deleted");
  return { category: post.category };
}

export const ADMIN_POSTS_PER_PAGE = 50;

/** Blog management: every post, most recently updated first, with the filter counts (a page past the last: NotFoundError). */
export async function listAdminPosts(db: Db, filter: AdminFilter, page: number) {
  const rows = await db.select({ published: blogPosts.published, n: count() }).from(blogPosts).groupBy(blogPosts.published);
  const published = rows.find((r) => r.published)?.n ?? 0;
  const drafts = rows.find((r) => !r.published)?.n ?? 0;
  const where = filter === "published" ? eq(blogPosts.published, true) : filter === "drafts" ? eq(blogPosts.published, false) : undefined;
  const total = filter === "published" ? published : filter === "drafts" ? drafts : published + drafts;
  const window = pageWindow(total, page, ADMIN_POSTS_PER_PAGE);
  const posts = await db
    .select({
      id: blogPosts.id,
      title: blogPosts.title,
      category: blogPosts.category,
      slug: blogPosts.slug,
      published: blogPosts.published,
      createdAt: blogPosts.createdAt,
      updatedAt: blogPosts.updatedAt,
    })
    .from(blogPosts)
    .where(where)
    .orderBy(desc(blogPosts.updatedAt), desc(blogPosts.id))
    .limit(window.limit)
    .offset(window.offset);
  return { posts, counts: { all: published + drafts, published, drafts }, page: window.page, pageCount: window.pageCount };
}

/** Newest published posts for RSS, of one category or of the whole blog. */
export async function listFeedPosts(db: Db, category: Category | null, limit = 50) {
  const where = category ? and(eq(blogPosts.published, true), eq(blogPosts.category, category)) : eq(blogPosts.published, true);
  return db
    .select({ title: blogPosts.title, slug: blogPosts.slug, excerpt: blogPosts.excerpt, content: blogPosts.content, category: blogPosts.category, createdAt: blogPosts.createdAt })
    .from(blogPosts)
    .where(where)
    .orderBy(desc(blogPosts.createdAt))
    .limit(limit);
}

