import { and, desc, eq, inArray } from "drizzle-orm";
import { CATEGORIES, type Category } from "~/lib/categories";
import type { Db } from "~/server/db/client.server";
import { blogPosts } from "~/server/db/schema.server";
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
    .orderBy(desc(blogPosts.featured), newestPublishedFirst())
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

/** Every published post, for the sitemap. */
export function listPublishedPostsForSitemap(db: Db): Promise<{ category: Category; slug: string; updatedAt: Date }[]> {
  return db
    .select({ category: blogPosts.category, slug: blogPosts.slug, updatedAt: blogPosts.updatedAt })
    .from(blogPosts)
    .where(published)
    .orderBy(desc(blogPosts.updatedAt));
}
