import { and, eq, gt, gte, inArray, lt, sql, type SQLWrapper } from "drizzle-orm";
import { z } from "zod";
import { CATEGORIES, type Category } from "~/lib/categories";
import type { Db } from "~/server/db/client.server";
import { blogPosts, postCounts } from "~/server/db/schema.server";
import { newestPublishedFirst, shownDate } from "../write/posts.server";

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

const sitemapColumnsSchema = z.object({
  categories: z.array(z.enum(CATEGORIES)),
  slugs: z.array(z.string()),
  updatedAt: z.array(z.number()),
});

/**
 * The published posts whose id is in [from, below) (below null: to the end; the defaults: all of
 * them), ordered by id: one sitemap file (app/features/pages/sitemap.ts postsFileIds).
 * The file comes as one row of three JSON arrays (a column each): on the embedded database each row
 * costs ~5 µs in PGlite's protocol parser, more than the query itself, and an array per post costs
 * PostgreSQL twice as much as a value per column (docs/decisions/0042-db-tails.md).
 * Read by an index-only scan of a range of blog_posts_published_id_idx, which holds every column here.
 */
export async function listPublishedPostsForSitemap(
  db: Db,
  ids: { from: string; below: string | null } = { from: "00000000-0000-0000-0000-000000000000", below: null },
): Promise<{ category: Category; slug: string; updatedAt: Date }[]> {
  const page = db
    .select({
      category: blogPosts.category,
      slug: blogPosts.slug,
      updatedAt: blogPosts.updatedAt,
      id: blogPosts.id,
    })
    .from(blogPosts)
    .where(and(published, gte(blogPosts.id, ids.from), ids.below === null ? undefined : lt(blogPosts.id, ids.below)))
    .orderBy(blogPosts.id)
    .as("page");
  const inOrder = sql`order by ${page.id}`;
  const column = (value: SQLWrapper) => sql<unknown>`coalesce(json_agg(${value} ${inOrder}), '[]'::json)`;
  const [row] = await db
    .select({
      categories: column(page.category),
      slugs: column(page.slug),
      // Milliseconds since 1970, rounded down as a Date parsed from the column would be.
      updatedAt: column(sql`floor(extract(epoch from ${page.updatedAt}) * 1000)`),
    })
    .from(page);
  const { categories, slugs, updatedAt } = sitemapColumnsSchema.parse(row ?? { categories: [], slugs: [], updatedAt: [] });
  if (slugs.length !== categories.length || updatedAt.length !== categories.length) throw new Error("sitemap columns differ in length");
  return categories.map((category, i) => ({ category, slug: slugs[i] ?? "", updatedAt: new Date(updatedAt[i] ?? 0) }));
}
