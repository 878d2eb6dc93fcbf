import { sql } from "drizzle-orm";
import type { Category } from "~/lib/categories";
import { type Db, ONE_ROW } from "~/server/db/client.server";
import { postCounts } from "~/server/db/schema.server";

/**
 * Published posts of one category, as a scalar subquery (a listing reads it in its own statement), from
 * post_counts: kept exact by triggers in every write's transaction, a few rows where counting the posts
 * themselves reads every one of them.
 */
export function publishedCountOf(category: Category) {
  return sql<number>`(select coalesce(sum(${postCounts.n}), 0)::int from ${postCounts} where ${postCounts.category} = ${category} and ${postCounts.published})`.mapWith(
    Number,
  );
}

/** Published posts of one category. */
export async function countPublishedPosts(db: Db, category: Category): Promise<number> {
  const [row] = await db.select({ n: publishedCountOf(category) }).from(ONE_ROW);
  return row?.n ?? 0;
}
