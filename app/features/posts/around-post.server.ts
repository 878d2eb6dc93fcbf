import { and, asc, desc, eq, gt, lt, ne, or } from "drizzle-orm";
import type { Category } from "~/lib/categories";
import type { Db } from "~/server/db/client.server";
import { blogPosts } from "~/server/db/schema.server";

export const RELATED_POSTS = 3;

const linkColumns = { slug: blogPosts.slug, title: blogPosts.title, category: blogPosts.category, createdAt: blogPosts.createdAt };

export interface PostLink {
  slug: string;
  title: string;
  category: Category;
  createdAt: Date;
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
 * (created_at, then id, so posts with the same time still have one order).
 */
export async function aroundPost(db: Db, post: { id: string; category: Category; createdAt: Date }): Promise<AroundPost> {
  const sameCategory = and(eq(blogPosts.category, post.category), eq(blogPosts.published, true), ne(blogPosts.id, post.id));
  const older = or(lt(blogPosts.createdAt, post.createdAt), and(eq(blogPosts.createdAt, post.createdAt), lt(blogPosts.id, post.id)));
  const newer = or(gt(blogPosts.createdAt, post.createdAt), and(eq(blogPosts.createdAt, post.createdAt), gt(blogPosts.id, post.id)));
  const [related, [previous], [next]] = await Promise.all([
    db.select(linkColumns).from(blogPosts).where(sameCategory).orderBy(desc(blogPosts.createdAt), desc(blogPosts.id)).limit(RELATED_POSTS),
    db.select(linkColumns).from(blogPosts).where(and(sameCategory, older)).orderBy(desc(blogPosts.createdAt), desc(blogPosts.id)).limit(1),
    db.select(linkColumns).from(blogPosts).where(and(sameCategory, newer)).orderBy(asc(blogPosts.createdAt), asc(blogPosts.id)).limit(1),
  ]);
  return { related, previous: previous ?? null, next: next ?? null };
}
