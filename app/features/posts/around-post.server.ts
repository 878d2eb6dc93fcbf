import { and, asc, desc, eq, gt, lt, ne, or } from "drizzle-orm";
import type { Category } from "~/lib/categories";
import type { Db } from "~/server/db/client.server";
import { blogPosts } from "~/server/db/schema.server";
import { shownDate } from "./posts.server";

export const RELATED_POSTS = 3;

const linkColumns = { slug: blogPosts.slug, title: blogPosts.title, category: blogPosts.category, publishedAt: shownDate() };

export interface PostLink {
  slug: string;
  title: string;
  category: Category;
  /** The date readers see: when the post was first published. */
  publishedAt: Date;
}

export interface AroundPost {
  /** The newest other published posts of the same category. */
  related: PostLink[];
  /** The published post just before (older) and just after (newer) in the category's order. */
  previous: PostLink | null;
  next: PostLink | null;
}

/**
 * What a reader sees around a post (issue 18): published posts only, in the category listing's order
 * (published_at, then id, so posts published at the same time still have one order). Published rows
 * always have a published_at, so the column itself is compared (the listing's index covers it).
 */
export async function aroundPost(
  db: Db,
  post: { id: string; category: Category; publishedAt: Date | null; createdAt: Date },
): Promise<AroundPost> {
  const at = blogPosts.publishedAt;
  // A draft (seen by staff) has no published_at: its creation date stands in, as on its page.
  const date = post.publishedAt ?? post.createdAt;
  const sameCategory = and(eq(blogPosts.category, post.category), eq(blogPosts.published, true), ne(blogPosts.id, post.id));
  const older = or(lt(at, date), and(eq(at, date), lt(blogPosts.id, post.id)));
  const newer = or(gt(at, date), and(eq(at, date), gt(blogPosts.id, post.id)));
  const [related, [previous], [next]] = await Promise.all([
    db.select(linkColumns).from(blogPosts).where(sameCategory).orderBy(desc(at), desc(blogPosts.id)).limit(RELATED_POSTS),
    db.select(linkColumns).from(blogPosts).where(and(sameCategory, older)).orderBy(desc(at), desc(blogPosts.id)).limit(1),
    db.select(linkColumns).from(blogPosts).where(and(sameCategory, newer)).orderBy(asc(at), asc(blogPosts.id)).limit(1),
  ]);
  return { related, previous: previous ?? null, next: next ?? null };
}
