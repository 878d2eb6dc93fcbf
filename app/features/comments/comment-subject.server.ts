import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import { ownerPagePath } from "~/features/owner-pages/owner-page-schema";
import { parseCategory, postPath } from "~/lib/categories";
import type { Db } from "~/server/db/client.server";
import { blogPosts, comments, commentsClosedPosts, ownerPages } from "~/server/db/schema.server";
import type { CommentSubjectRef } from "./comment-schema";

/**
 * What a comment is on: a post, or one of the owner's pages (docs/decisions/0056-comments.md). The
 * thread, form, moderation and mail are the same for both; only where the row points differs.
 */
export interface CommentSubject extends CommentSubjectRef {
  title: string;
  /** The public address of the post or page. */
  path: string;
  published: boolean;
  /** A post's first publication (the age limit counts from it); null for a page. */
  publishedAt: Date | null;
  /** Comments turned off: a post's own switch, or a page whose owner did not turn them on. */
  closed: boolean;
}

/** The comments column that points at a subject of this kind. */
export const subjectColumn = (ref: CommentSubjectRef) => (ref.kind === "page" ? comments.pageId : comments.postId);
/** The condition "this comment is on that post or page". */
export const onSubject = (ref: CommentSubjectRef) => eq(subjectColumn(ref), ref.id);
/** The columns a new comment on this subject sets. */
export const subjectValues = (ref: CommentSubjectRef) => ({
  postId: ref.kind === "post" ? ref.id : null,
  pageId: ref.kind === "page" ? ref.id : null,
});
/** Which subject a comment row is on. */
export function subjectRefOf(row: { postId: string | null; pageId: string | null }): CommentSubjectRef {
  return row.pageId ? { kind: "page", id: row.pageId } : { kind: "post", id: row.postId ?? "" };
}

/** The post or page a form or an address names, or undefined (anything but a UUID names nothing: a 404, never a database error). */
export async function findCommentSubject(db: Db, ref: CommentSubjectRef): Promise<CommentSubject | undefined> {
  if (!z.uuid().safeParse(ref.id).success) return undefined;
  if (ref.kind === "page") {
    const [page] = await db
      .select({
        title: ownerPages.title,
        address: ownerPages.address,
        published: ownerPages.published,
        enabled: ownerPages.commentsEnabled,
      })
      .from(ownerPages)
      .where(eq(ownerPages.id, ref.id));
    if (!page) return undefined;
    return {
      ...ref,
      title: page.title,
      path: ownerPagePath(page.address),
      published: page.published,
      publishedAt: null,
      closed: !page.enabled,
    };
  }
  const [post] = await db
    .select({
      title: blogPosts.title,
      category: blogPosts.category,
      slug: blogPosts.slug,
      published: blogPosts.published,
      publishedAt: blogPosts.publishedAt,
      closed: sql<boolean>`exists (select 1 from ${commentsClosedPosts} where ${commentsClosedPosts.postId} = ${blogPosts.id})`,
    })
    .from(blogPosts)
    .where(eq(blogPosts.id, ref.id));
  if (!post) return undefined;
  const { category, slug, ...rest } = post;
  return { ...ref, ...rest, path: subjectPath({ postCategory: category, postSlug: slug, pageAddress: null }) };
}

/**
 * For a query on comments joined to both subjects (`leftJoin(blogPosts, eq(blogPosts.id,
 * comments.postId))` and the same for `ownerPages` on `comments.pageId`): the columns naming its post or page.
 */
export const subjectColumns = {
  postTitle: blogPosts.title,
  postCategory: blogPosts.category,
  postSlug: blogPosts.slug,
  pageTitle: ownerPages.title,
  pageAddress: ownerPages.address,
};

/** The public address of the post or page a joined row names ("/" when it is gone). */
export function subjectPath(row: { postCategory: string | null; postSlug: string | null; pageAddress: string | null }): string {
  if (row.pageAddress) return ownerPagePath(row.pageAddress);
  const category = row.postCategory ? parseCategory(row.postCategory) : null;
  return category && row.postSlug ? postPath(category, row.postSlug) : "/";
}

/** The title of the post or page a joined row names. */
export const subjectTitle = (row: { postTitle: string | null; pageTitle: string | null }) => row.postTitle ?? row.pageTitle ?? "";
