import { and, asc, eq, gt, inArray, sql } from "drizzle-orm";
import { CATEGORIES, type Category } from "~/lib/categories";
import type { Db } from "~/server/db/client.server";
import { blogPosts, postCounts } from "~/server/db/schema.server";
import { pageOffset } from "~/server/pagination.server";
import { newestPublishedFirst, shownDate } from "./posts.server";

export interface FeaturedArticle {
  id: string;
  title: string;
  excerpt: string | null;
  featuredImageUrl: string | null;
  featuredImageAlt: string | null;
  slug: string;
  category: Category;
  publishedAt: Date;
}

const published = and(eq(blogPosts.published, true), inArray(blogPosts.category, [...CATEGORIES]));

/** The home page's 7Fs article: published, one of the seven categories, featured first, then newest. */
export async function getFeaturedArticle(db: Db): Promise<FeaturedArticle | null> {
  const [post] = await db
    .select({
      id: blogPosts.id,
      title: blogPosts.title,
      excerpt: blogPosts.excerpt,
      featuredImageUrl: blogPosts.featuredImageUrl,
      featuredImageAlt: blogPosts.featuredImageAlt,
      slug: blogPosts.slug,
      category: blogPosts.category,
      publishedAt: shownDate(),
    })
    .from(blogPosts)
    .where(published)
    .orderBy(sql`${blogPosts.featured} desc nulls last`, newestPublishedFirst())
    .limit(1);
  return post ?? null;
}

/** The 7Fs teaser's target: the newest published post, or null. */
export async function getNewestPublishedPost(db: Db): Promise<{ category: Category; slug: string } | null> {
  const [post] = await db
    .select({ category: blogPosts.category, slug: blogPosts.slug })
    .from(blogPosts)
    .where(published)
    .orderBy(newestPublishedFirst())
    .limit(1);
  return post ?? null;
}

/** The sitemaps' figures: how many published posts, and the newest change overall and per category. */
export async function getSitemapDates(
  db: Db,
): Promise<{ count: number; newest: Date | null; newestByCategory: Partial<Record<Category, Date>> }> {
  // Counts from post_counts; each category's newest change is one probe of its (category, published, updated_at) index.
  const rows = await db
    .select({
      category: postCounts.category,
      n: sql<number>`sum(${postCounts.n})::int`,
      // Named in full: a single-table select renders its columns unqualified, which here would mean b's.
      newest:
        sql<Date | null>`(select max(b.updated_at) from ${blogPosts} b where b.category = ${postCounts}.category and b.published)`.mapWith(
          blogPosts.updatedAt,
        ),
    })
    .from(postCounts)
    .where(and(eq(postCounts.published, true), gt(postCounts.n, 0)))
    .groupBy(postCounts.category);
  const newestByCategory: Partial<Record<Category, Date>> = {};
  let newest: Date | null = null;
  for (const row of rows) {
    if (!row.newest) continue;
    newestByCategory[row.category] = row.newest;
    if (!newest || row.newest > newest) newest = row.newest;
  }
  return { count: rows.reduce((sum, row) => sum + row.n, 0), newest, newestByCategory };
}

/** One sitemap file of published posts (1-based), oldest first so that a file's content stays put. */
export function listPublishedPostsForSitemap(
  db: Db,
  file = 1,
  perFile = 50_000,
): Promise<{ category: Category; slug: string; updatedAt: Date }[]> {
  return db
    .select({ category: blogPosts.category, slug: blogPosts.slug, updatedAt: blogPosts.updatedAt })
    .from(blogPosts)
    .where(published)
    .orderBy(asc(blogPosts.createdAt), asc(blogPosts.id))
    .limit(perFile)
    .offset(pageOffset(file, perFile));
}
