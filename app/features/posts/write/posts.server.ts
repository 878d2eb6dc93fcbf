import { and, desc, eq, gt, isNotNull, isNull, ne, sql, type SQL } from "drizzle-orm";
import { hasPgErrorCode, UNIQUE_VIOLATION } from "~/server/db/pg-errors.server";
import { z } from "zod";
import { postPath, type Category } from "~/lib/categories";
import { canCreatePost, canDeletePost, canUpdatePost, canViewDrafts, type Actor } from "~/lib/permissions";
import { authorize } from "~/server/authorize.server";
import { slugify } from "~/lib/slug";
import { recordAudit } from "~/server/audit.server";
import { bumpContentVersion } from "~/server/content-version.server";
import { enqueuePostFederation } from "~/features/fediverse/fediverse.server";
import { readNewsletterSettings } from "~/features/subscriptions/newsletter-settings.server";
import { readSiteSettings } from "~/features/settings/settings.server";
import { type Db, ONE_ROW } from "~/server/db/client.server";
import { blogMedia, blogPosts, MEDIA_TYPES, postRedirects } from "~/server/db/schema.server";
import { ConflictError, NotFoundError, parseOrThrow, UnauthorizedError, ValidationError } from "~/server/errors.server";
import { logger } from "~/server/logger.server";
import { pageOffset, pageWindow } from "~/server/pagination.server";
import type { AdminFilter, AdminPosition, AdminSort } from "./admin-filters";
import { POST_MESSAGES, postInputSchema, type PostInput } from "./post-schema";
import { countPublishedPosts, NO_POST_STATS, postStatsOf, publishedCountOf } from "../read/post-counts.server";
import { discardAutosave } from "./autosave.server";
import { afterPostWrite, isReservedSlug, isSlugTaken, renderedColumns, revisionOf, slugCandidates } from "./post-write.server";
import { syncPublishJob } from "./scheduling.server";
import { enqueuePostFilesCleanup } from "./post-files.server";
import { renderPostBody } from "../content/post-render.server";

export const POSTS_PER_PAGE = 12;
const SAVE_FORBIDDEN = "You don't have permission to save posts.";
const DELETE_FORBIDDEN = "Only an admin or the post's author may delete it.";
/** A second identical submission by the same author within this window returns the first post. */
const DUPLICATE_WINDOW_MS = 30_000;

/**
 * The date readers see and listings order by: when the post was first published (created_at for
 * rows from before published_at existed; the migration backfills them, this keeps the type a Date).
 */
export function shownDate() {
  return sql<Date>`coalesce(${blogPosts.publishedAt}, ${blogPosts.createdAt})`.mapWith(blogPosts.createdAt);
}

/**
 * Newest first by that date, then by id (one order for posts published at the same time). NULLS LAST
 * on both keys as the indexes store them (drizzle's `.desc()`): a plain `desc` means NULLS FIRST, and
 * PostgreSQL then sorts every matching row instead of reading the index in order.
 */
export function newestPublishedFirst() {
  return sql`${blogPosts.publishedAt} desc nulls last, ${blogPosts.id} desc nulls last`;
}

/** One key of an admin order: a never-null expression of the row `t`, in descending order unless `asc`. */
type SortKey = (t: string) => SQL;

const column = (name: string) => (t: string) => sql.raw(`"${t}"."${name}"`);
const ID: SortKey = column("id");

/**
 * Blog Management's orders. Every order ends on the id so posts that tie keep one order across pages;
 * every key is never null and all keys of an order run one way, so a page's last row (the keyset
 * cursor) and the rows after it are one row comparison an index range scan starts from (each order
 * has its index: drizzle/0036_29-admin-keyset.sql). "date" is the date readers see (drafts, never
 * published, by when they were written); "title" is A to Z ignoring case; "status" puts drafts first,
 * then scheduled posts (soonest first: the longest wait before the end of time), then published ones,
 * each most recently updated first.
 */
const ADMIN_ORDERS: Record<AdminSort, { keys: SortKey[]; asc: boolean }> = {
  updated: { keys: [column("updated_at"), ID], asc: false },
  date: { keys: [(t) => sql.raw(`coalesce("${t}"."published_at", "${t}"."created_at")`), ID], asc: false },
  title: { keys: [(t) => sql.raw(`lower("${t}"."title")`), ID], asc: true },
  status: {
    keys: [
      (t) => sql.raw(`(not "${t}"."published")`),
      (t) => sql.raw(`("${t}"."scheduled_at" is null)`),
      (t) => sql.raw(`(${END_OF_TIME} - coalesce("${t}"."scheduled_at", ${END_OF_TIME}))`),
      column("updated_at"),
      ID,
    ],
    asc: false,
  },
};

/** A fixed instant past any schedule (with its offset, so it reads the same in every session time zone). */
const END_OF_TIME = "'9999-12-31 00:00:00+00'::timestamptz";

const OUTER = "blog_posts";
const CURSOR = "cursor_row";

/**
 * ORDER BY of an order, NULLS LAST as the indexes store it; reversed (read backwards, for the page
 * before a cursor) it is the exact mirror, NULLS FIRST, so the same index is read from its other end.
 */
function orderOf({ keys, asc }: (typeof ADMIN_ORDERS)[AdminSort], reversed: boolean): SQL {
  const direction = asc !== reversed ? "asc" : "desc";
  return sql.join(
    keys.map((k) => sql`${k(OUTER)} ${sql.raw(`${direction} nulls ${reversed ? "first" : "last"}`)}`),
    sql`, `,
  );
}

/**
 * Rows strictly past the cursor post in the order (before it when reversed): one row comparison. The
 * cursor's keys are read from its row by id (scalar subqueries, one index lookup each), so a cursor is
 * just a post id and timestamps keep their full precision; a cursor post that is gone matches nothing.
 */
function pastCursor({ keys, asc }: (typeof ADMIN_ORDERS)[AdminSort], cursorId: string, reversed: boolean): SQL {
  const at = (k: SortKey) =>
    sql`(select ${k(CURSOR)} from ${blogPosts} as "${sql.raw(CURSOR)}" where "${sql.raw(CURSOR)}"."id" = ${cursorId})`;
  return sql`(${sql.join(
    keys.map((k) => k(OUTER)),
    sql`, `,
  )}) ${sql.raw(asc !== reversed ? ">" : "<")} (${sql.join(keys.map(at), sql`, `)})`;
}

const cardColumns = {
  id: blogPosts.id,
  title: blogPosts.title,
  slug: blogPosts.slug,
  excerpt: blogPosts.excerpt,
  featuredImageUrl: blogPosts.featuredImageUrl,
  featuredImageAlt: blogPosts.featuredImageAlt,
  category: blogPosts.category,
  publishedAt: shownDate(),
};

/**
 * One page of a listing's rows as a "deferred join": the OFFSET walks an index-only scan of the
 * listing's index (ids only, no table rows), then only the page's rows are read. Reading every
 * skipped row instead made a page deep in a 100,000-post blog cost thousands of table pages
 * (docs/decisions/0042-db-tails.md). Join it on blogPosts.id and order the outer query the same way.
 */
function pageIds(db: Db, where: SQL | undefined, order: SQL, limit: number, offset: number) {
  return db.select({ id: blogPosts.id }).from(blogPosts).where(where).orderBy(order).limit(limit).offset(offset).as("page_ids");
}

/** Published posts of one category, newest first, one page at a time (a page past the last: NotFoundError). */
export async function listPublishedPosts(db: Db, category: Category, page: number) {
  const where = and(eq(blogPosts.category, category), eq(blogPosts.published, true));
  const ids = pageIds(db, where, newestPublishedFirst(), POSTS_PER_PAGE, pageOffset(page, POSTS_PER_PAGE));
  // The page and the total in one statement; a page past the last has no row to carry the total.
  const rows = await db
    .select({ ...cardColumns, total: publishedCountOf(category) })
    .from(blogPosts)
    .innerJoin(ids, eq(blogPosts.id, ids.id))
    .orderBy(newestPublishedFirst());
  const total = rows[0]?.total ?? (await countPublishedPosts(db, category));
  const window = pageWindow(total, page, POSTS_PER_PAGE);
  const posts = rows.map(({ total: _total, ...post }) => post);
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
      contentHtml: blogPosts.contentHtml,
      contentText: blogPosts.contentText,
      excerpt: blogPosts.excerpt,
      featuredImageUrl: blogPosts.featuredImageUrl,
      featuredImageAlt: blogPosts.featuredImageAlt,
      category: blogPosts.category,
      published: blogPosts.published,
      featured: blogPosts.featured,
      authorId: blogPosts.authorId,
      createdAt: blogPosts.createdAt,
      publishedAt: shownDate(),
      scheduledAt: blogPosts.scheduledAt,
      version: blogPosts.version,
      updatedAt: blogPosts.updatedAt,
      // The post's media in the same statement: on the embedded database every statement is a
      // round trip through its one connection, and a post page ran five in a row.
      media: sql<unknown>`(select coalesce(json_agg(json_build_object('id', m.id, 'mediaType', m.media_type,
        'mediaUrl', m.media_url, 'caption', m.caption, 'alt', m.alt, 'uploadId', m.upload_id)
        order by m.display_order, m.created_at), '[]'::json) from ${blogMedia} m where m.post_id = ${blogPosts}.id)`,
    })
    .from(blogPosts)
    .where(eq(blogPosts.slug, slug))
    .limit(1);
  if (!post) return null;
  return { ...post, media: postMediaSchema.parse(post.media) };
}

const postMediaSchema = z.array(
  z.object({
    id: z.string(),
    mediaType: z.enum(MEDIA_TYPES),
    mediaUrl: z.string(),
    caption: z.string().nullable(),
    alt: z.string().nullable(),
    uploadId: z.string().nullable(),
  }),
);

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

const isUniqueViolation = (error: unknown) => hasPgErrorCode(error, UNIQUE_VIOLATION);

async function findDuplicate(db: Db, authorId: string, input: PostInput) {
  const [dup] = await db
    .select({ id: blogPosts.id, slug: blogPosts.slug, category: blogPosts.category, scheduledAt: blogPosts.scheduledAt })
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
    media.map((m, i) => ({
      postId,
      mediaType: m.mediaType,
      mediaUrl: m.mediaUrl,
      caption: m.caption ?? null,
      alt: m.alt ?? null,
      uploadId: m.uploadId ?? null,
      displayOrder: i,
    })),
  );
}

/**
 * Creates a post with a slug from its title (SPEC §4); on a clash the slug gets -2, -3, ... The unique
 * index decides under concurrency: a losing insert retries with the next candidate. A double submit
 * (same author, title, content within 30 s) returns the first post instead of creating a second.
 */
export async function createPost(
  db: Db,
  author: Actor | null,
  raw: unknown,
): Promise<{ id: string; slug: string; category: Category; scheduledAt: Date | null; duplicate: boolean }> {
  authorize(author, canCreatePost, SAVE_FORBIDDEN);
  const input = parsePostInput(raw);
  const now = new Date();
  const scheduledAt = scheduleOf(input, now);
  const base = slugify(input.title);
  if (!base) throw new ValidationError(POST_MESSAGES.titleNoSlug, { title: [POST_MESSAGES.titleNoSlug] });
  const existing = await findDuplicate(db, author.id, input);
  if (existing) return { ...existing, duplicate: true };
  const columns = await renderedColumns(db, input);
  const site = await readSiteSettings(db);
  const emailOnPublish = await emailChoice(db, input);
  for (const slug of slugCandidates(base)) {
    if (await isSlugTaken(db, slug)) {
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
            ...columns,
            emailOnPublish,
            slug,
            publishedAt: input.published ? now : null,
            scheduledAt,
            authorId: author.id,
            createdAt: now,
            updatedAt: now,
          })
          .returning({ id: blogPosts.id, slug: blogPosts.slug, category: blogPosts.category, scheduledAt: blogPosts.scheduledAt });
        if (!row) throw new Error("insert returned no row");
        await replaceMedia(tx, row.id, input.media);
        await discardAutosave(tx, author.id, { category: input.category });
        await afterPostWrite(tx, {
          revision: revisionOf(row.id, input, author.id),
          before: null,
          after: { published: input.published, scheduledAt, category: row.category },
          address: { slug },
          syncSchedule: syncPublishJob,
          announce: { site },
          audit: { actor: author, action: "post.create", summary: `${input.title} (/7fs/${input.category}/${slug})` },
        });
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

/** "Publish and email subscribers" as the save asks, else the newsletter settings' default. */
async function emailChoice(db: Db, input: PostInput): Promise<boolean> {
  return input.emailSubscribers ?? (await readNewsletterSettings(db)).emailByDefault;
}

/** The time a post is scheduled for by this input, or null; a time not in the future is refused. */
function scheduleOf(input: PostInput, now: Date): Date | null {
  if (input.published || !input.publishAt) return null;
  if (input.publishAt.getTime() <= now.getTime())
    throw new ValidationError(POST_MESSAGES.publishAtPast, { publishAt: [POST_MESSAGES.publishAtPast] });
  return input.publishAt;
}

/** The slug an edit asks for, checked against the reserved slugs and the other posts (400 with the field's message). */
async function checkNewSlug(db: Db, postId: string, slug: string) {
  if (isReservedSlug(slug)) throw new ValidationError(POST_MESSAGES.slugReserved, { slug: [POST_MESSAGES.slugReserved] });
  const [taken] = await db
    .select({ id: blogPosts.id })
    .from(blogPosts)
    .where(and(eq(blogPosts.slug, slug), ne(blogPosts.id, postId)))
    .limit(1);
  if (taken) throw slugTaken();
}

function slugTaken() {
  return new ValidationError(POST_MESSAGES.slugTaken, { slug: [POST_MESSAGES.slugTaken] });
}

/**
 * Updates a post found by its slug. Edit mode may change its category and slug: the old address then
 * answers 301 to the new one forever (post_redirects, written in the same transaction). With
 * `version` (the editor sends the one it loaded) a save based on an older version is refused: the
 * UPDATE only matches the version it read, so two concurrent saves cannot both win.
 */
export async function updatePost(
  db: Db,
  actor: Actor | null,
  slug: string,
  raw: unknown,
): Promise<{ id: string; slug: string; category: Category; scheduledAt: Date | null }> {
  authorize(actor, canUpdatePost, SAVE_FORBIDDEN);
  const input = parsePostInput(raw);
  if (!isLookupSlug(slug)) throw new NotFoundError("That post no longer exists.");
  const [post] = await db
    .select({
      id: blogPosts.id,
      version: blogPosts.version,
      published: blogPosts.published,
      scheduledAt: blogPosts.scheduledAt,
      category: blogPosts.category,
    })
    .from(blogPosts)
    .where(eq(blogPosts.slug, slug))
    .limit(1);
  if (!post) throw new NotFoundError("That post no longer exists.");
  const newSlug = input.slug ?? slug;
  const moved = newSlug !== slug || input.category !== post.category;
  if (newSlug !== slug) await checkNewSlug(db, post.id, newSlug);
  const columns = await renderedColumns(db, input);
  if (input.version !== undefined && input.version !== post.version) throw new ConflictError(POST_MESSAGES.conflict);
  const now = new Date();
  const scheduledAt = scheduleOf(input, now);
  const site = await readSiteSettings(db);
  const emailOnPublish = await emailChoice(db, input);
  try {
    await db.transaction(async (tx) => {
      const updated = await tx
        .update(blogPosts)
        .set({
          ...columns,
          emailOnPublish,
          slug: newSlug,
          publishedAt: input.published ? sql`coalesce(${blogPosts.publishedAt}, ${now.toISOString()}::timestamptz)` : undefined,
          scheduledAt,
          version: sql`${blogPosts.version} + 1`,
          updatedAt: now,
        })
        .where(and(eq(blogPosts.id, post.id), eq(blogPosts.version, post.version)))
        .returning({ id: blogPosts.id });
      if (updated.length === 0) throw new ConflictError(POST_MESSAGES.conflict);
      await replaceMedia(tx, post.id, input.media);
      await discardAutosave(tx, actor.id, { postId: post.id });
      const address = moved ? `, moved from ${postPath(post.category, slug)} to ${postPath(input.category, newSlug)}` : "";
      await afterPostWrite(tx, {
        revision: revisionOf(post.id, input, actor.id),
        before: post,
        after: { published: input.published, scheduledAt, category: input.category },
        address: moved ? { slug: newSlug, from: { category: post.category, slug } } : undefined,
        syncSchedule: syncPublishJob,
        announce: { site },
        audit: { actor, action: "post.update", summary: `${input.title} (${input.published ? "published" : "draft"}${address})` },
      });
    });
  } catch (error) {
    // Another post took the slug between the check and this save: the unique index decided.
    if (isUniqueViolation(error)) throw slugTaken();
    throw error;
  }
  logger.info({ postId: post.id, slug: newSlug, from: moved ? slug : undefined, by: actor.id }, "post updated");
  return { id: post.id, slug: newSlug, category: input.category, scheduledAt };
}

/**
 * The post an old address (from post_redirects) now belongs to, if the actor may read it: the row of
 * that category first, else the newest row with that slug (posts are found by slug under any category).
 */
export async function findMovedPost(
  db: Db,
  category: Category,
  slug: string,
  actor: Actor | null,
): Promise<{ category: Category; slug: string } | null> {
  if (!isLookupSlug(slug)) return null;
  const [row] = await db
    .select({ category: blogPosts.category, slug: blogPosts.slug, published: blogPosts.published })
    .from(postRedirects)
    .innerJoin(blogPosts, eq(blogPosts.id, postRedirects.postId))
    .where(eq(postRedirects.slug, slug))
    .orderBy(sql`${postRedirects.category} = ${category} desc`, desc(postRedirects.createdAt))
    .limit(1);
  if (!row || (!row.published && !canViewDrafts(actor))) return null;
  return { category: row.category, slug: row.slug };
}

/**
 * Deletes a post and its media rows; only admins or the post's author (canDeletePost). Its uploaded
 * files go too, by a job queued in the same transaction, unless something else still uses them.
 */
/**
 * Deletes posts in the caller's transaction (which bumps the content version and audits): their files
 * are handed to the cleanup job, their media rows go, and the tables that hang off a post follow by cascade.
 */
export async function deletePostsInTransaction(tx: Db, postIds: readonly string[]): Promise<void> {
  for (const postId of postIds) {
    await enqueuePostFilesCleanup(tx, postId);
    await enqueuePostFederation(tx, postId);
    await tx.delete(blogMedia).where(eq(blogMedia.postId, postId));
    await tx.delete(blogPosts).where(eq(blogPosts.id, postId));
  }
}

export async function deletePost(db: Db, actor: Actor | null, slug: string): Promise<{ category: Category }> {
  if (!actor) throw new UnauthorizedError();
  if (!isLookupSlug(slug)) throw new NotFoundError("That post no longer exists.");
  const [post] = await db
    .select({ id: blogPosts.id, authorId: blogPosts.authorId, category: blogPosts.category })
    .from(blogPosts)
    .where(eq(blogPosts.slug, slug))
    .limit(1);
  if (!post) throw new NotFoundError("That post no longer exists.");
  authorize(actor, (a) => canDeletePost(a, post), DELETE_FORBIDDEN);
  await db.transaction(async (tx) => {
    await deletePostsInTransaction(tx, [post.id]);
    await bumpContentVersion(tx);
    await recordAudit(tx, {
      actor,
      action: "post.delete",
      target: { type: "post", id: post.id },
      summary: `/7fs/${post.category}/${slug}`,
    });
  });
  logger.info({ postId: post.id, slug, by: actor.id }, "post deleted");
  return { category: post.category };
}

/**
 * Renders again the stored HTML and text of every post whose body shows the upload `storageKey`, in
 * the caller's transaction: the library's alt text of an upload is read at render time (shownAlt), so
 * a change of it reaches every post at once. The Markdown the author wrote is untouched (no revision).
 */
export async function rerenderPostsShowing(tx: Db, storageKey: string): Promise<number> {
  const rows = await tx
    .select({ id: blogPosts.id, content: blogPosts.content })
    .from(blogPosts)
    .where(sql`strpos(${blogPosts.content}, ${storageKey}) > 0`);
  for (const row of rows) {
    const body = await renderPostBody(tx, row.content);
    await tx.update(blogPosts).set({ contentHtml: body.html, contentText: body.text }).where(eq(blogPosts.id, row.id));
  }
  return rows.length;
}

export const ADMIN_POSTS_PER_PAGE = 50;

/**
 * Blog management: one page of posts in the chosen order (most recently updated first by default),
 * with the filter counts. Keyset pagination: a page is read from an index starting at the cursor
 * post, so the last page of 100,000 posts costs what the first does (no OFFSET walking the rows
 * before it). A cursor with nothing past it (its post deleted meanwhile, a stale link) shows the first page.
 */
export async function listAdminPosts(
  db: Db,
  filter: AdminFilter,
  position: AdminPosition = {},
  narrow: AdminNarrowing = {},
): Promise<{
  posts: AdminPostRow[];
  counts: Record<AdminFilter, number>;
  prevCursor: string | null;
  nextCursor: string | null;
}> {
  const [row] = await db.select({ stats: postStatsOf() }).from(ONE_ROW);
  const { total: all, ...counts } = row?.stats ?? NO_POST_STATS;
  const state =
    filter === "published"
      ? eq(blogPosts.published, true)
      : filter === "drafts"
        ? and(eq(blogPosts.published, false), isNull(blogPosts.scheduledAt))
        : filter === "scheduled"
          ? and(eq(blogPosts.published, false), isNotNull(blogPosts.scheduledAt))
          : undefined;
  const title = narrow.title?.trim();
  const where = and(
    state,
    narrow.category ? eq(blogPosts.category, narrow.category) : undefined,
    // A title search matches anywhere in the title, ignoring case; % and _ are the author's, not wildcards.
    title ? sql`${blogPosts.title} ilike ${`%${title.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}` : undefined,
  );
  const order = ADMIN_ORDERS[narrow.sort ?? "updated"];
  const cursor = "after" in position ? position.after : "before" in position ? position.before : null;
  const reversed = "before" in position;
  // One row more than a page says whether there is a page beyond this one.
  const rows = await db
    .select(adminPostColumns)
    .from(blogPosts)
    .where(and(where, cursor ? pastCursor(order, cursor, reversed) : undefined))
    .orderBy(orderOf(order, reversed))
    .limit(ADMIN_POSTS_PER_PAGE + 1);
  if (cursor && rows.length === 0) return listAdminPosts(db, filter, {}, narrow);
  const more = rows.length > ADMIN_POSTS_PER_PAGE;
  const page = rows.slice(0, ADMIN_POSTS_PER_PAGE);
  if (reversed) page.reverse();
  const [firstRow, lastRow] = [page[0], page[page.length - 1]];
  // Read forwards, a cursor means a page before; read backwards, the cursor post is on a page after.
  const hasPrev = reversed ? more : cursor !== null;
  const hasNext = reversed ? true : more;
  return {
    posts: page,
    counts: { all, ...counts },
    prevCursor: hasPrev && firstRow ? firstRow.id : null,
    nextCursor: hasNext && lastRow ? lastRow.id : null,
  };
}

const adminPostColumns = {
  id: blogPosts.id,
  authorId: blogPosts.authorId,
  title: blogPosts.title,
  category: blogPosts.category,
  slug: blogPosts.slug,
  published: blogPosts.published,
  scheduledAt: blogPosts.scheduledAt,
  createdAt: blogPosts.createdAt,
  updatedAt: blogPosts.updatedAt,
};

type AdminPostRow = Pick<typeof blogPosts.$inferSelect, keyof typeof adminPostColumns>;

/** Blog Management's narrowing beyond the state filter: a title search, one category, and the order. */
export interface AdminNarrowing {
  title?: string;
  category?: Category;
  sort?: AdminSort;
}

/** How many posts a feed carries: the newest only, so a feed stays small at any blog size. */
export const FEED_POSTS = 20;

/** Newest published posts for RSS, of one category or of the whole blog. */
export async function listFeedPosts(db: Db, category: Category | null, limit = FEED_POSTS) {
  const where = category ? and(eq(blogPosts.published, true), eq(blogPosts.category, category)) : eq(blogPosts.published, true);
  return db
    .select({
      id: blogPosts.id,
      title: blogPosts.title,
      slug: blogPosts.slug,
      excerpt: blogPosts.excerpt,
      content: sql<string>`coalesce(${blogPosts.contentText}, ${blogPosts.content})`,
      contentHtml: blogPosts.contentHtml,
      category: blogPosts.category,
      publishedAt: shownDate(),
      // The post's first address (its oldest redirect), so a moved post keeps the guid readers saw.
      // (Columns in a single-table select render unqualified, so the outer id is named in full.)
      firstPath: sql<
        string | null
      >`(select '/7fs/' || r.category || '/' || r.slug from ${postRedirects} r where r.post_id = ${blogPosts}.id order by r.created_at asc, r.id asc limit 1)`,
    })
    .from(blogPosts)
    .where(where)
    .orderBy(newestPublishedFirst())
    .limit(limit);
}
