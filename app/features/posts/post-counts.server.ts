import { sql, type SQL } from "drizzle-orm";
import type { Category } from "~/lib/categories";
import { type Db, ONE_ROW } from "~/server/db/client.server";
import { postCounts } from "~/server/db/schema.server";

export interface PostCountRow {
  category: Category;
  published: boolean;
  scheduled: boolean;
  n: number;
}

/**
 * The posts of each kind, from post_counts (kept exact by triggers in every write's transaction):
 * a few rows, where counting the posts themselves reads every one of them.
 */
export function postCountRows(db: Db, where?: SQL): Promise<PostCountRow[]> {
  return db
    .select({ category: postCounts.category, published: postCounts.published, scheduled: postCounts.scheduled, n: postCounts.n })
    .from(postCounts)
    .where(where);
}

/** How many posts of the rows' kinds match. */
export function sumCounts(rows: PostCountRow[], match: (row: PostCountRow) => boolean = () => true): number {
  return rows.filter(match).reduce((n, row) => n + row.n, 0);
}

/** Published posts of one category, as a scalar subquery (a listing reads it in its own statement). */
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
