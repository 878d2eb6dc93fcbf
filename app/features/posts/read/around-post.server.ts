import { and, eq, ne, sql } from "drizzle-orm";
import type { Category } from "~/lib/categories";
import type { Db } from "~/server/db/client.server";
import { blogPosts } from "~/server/db/schema.server";
import { unionAll } from "drizzle-orm/pg-core";
import { newestPublishedFirst, shownDate } from "../write/posts.server";

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
 * What a reader sees around a post: published posts only, in the category listing's order
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
  // Row comparisons, so the listing's index (category, published, published_at, id) seeks straight to
  // the neighbour instead of filtering its way there; NULLS LAST / FIRST as that index stores them.
  const here = sql`(${date.toISOString()}::timestamptz, ${post.id}::uuid)`;
  const older = sql`(${at}, ${blogPosts.id}) < ${here}`;
  const newer = sql`(${at}, ${blogPosts.id}) > ${here}`;
  // One statement (each part in parentheses with its own ORDER BY and LIMIT): on the embedded
  // database every statement is a round trip through its one connection.
  const part = (name: "related" | "previous" | "next") => ({
    ...linkColumns,
    id: blogPosts.id,
    part: sql<string>`${name}::text`.as("part"),
  });
  const rows = await unionAll(
    db.select(part("related")).from(blogPosts).where(sameCategory).orderBy(newestPublishedFirst()).limit(RELATED_POSTS),
    db.select(part("previous")).from(blogPosts).where(and(sameCategory, older)).orderBy(newestPublishedFirst()).limit(1),
    db
      .select(part("next"))
      .from(blogPosts)
      .where(and(sameCategory, newer))
      .orderBy(sql`${at} asc nulls first, ${blogPosts.id} asc nulls first`)
      .limit(1),
  );
  const link = ({ slug, title, category, publishedAt }: (typeof rows)[number]): PostLink => ({ slug, title, category, publishedAt });
  // UNION ALL promises no order: related posts are put back in the listing's (date, then id, newest first).
  const related = rows
    .filter((r) => r.part === "related")
    .sort((a, b) => b.publishedAt.getTime() - a.publishedAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
    .map(link);
  const previous = rows.find((r) => r.part === "previous");
  const next = rows.find((r) => r.part === "next");
  return { related, previous: previous ? link(previous) : null, next: next ? link(next) : null };
}
