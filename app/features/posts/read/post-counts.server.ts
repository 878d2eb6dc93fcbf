import { sql } from "drizzle-orm";
import { z } from "zod";
import type { Category } from "~/lib/categories";
import { type Db, ONE_ROW } from "~/server/db/client.server";
import { postCounts } from "~/server/db/schema.server";
import { logger } from "~/server/logger.server";

// Every count of posts comes from post_counts: kept exact by triggers in every write's transaction, a
// few rows where counting the posts themselves reads every one of them.

/**
 * Published posts of one category, as a scalar subquery (a listing reads it in its own statement), from
 * post_counts.
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

export interface PostStats {
  total: number;
  published: number;
  drafts: number;
  /** Waiting for their publish time (not counted in drafts). */
  scheduled: number;
}

export const NO_POST_STATS: PostStats = { total: 0, published: 0, drafts: 0, scheduled: 0 };

const storedStatsSchema = z.object({ total: z.number().int(), published: z.number().int(), scheduled: z.number().int() });

function toPostStats(value: unknown): PostStats {
  const { total, published, scheduled } = storedStatsSchema.parse(typeof value === "string" ? JSON.parse(value) : value);
  return { total, published, drafts: total - published - scheduled, scheduled };
}

/**
 * The dashboard counters (SPEC §2) from post_counts, as a scalar subquery: a page that shows other
 * counts too reads them all in one statement (each statement is several round trips into PGlite).
 */
export function postStatsOf() {
  const n = postCounts.n;
  return sql<PostStats>`(select json_build_object(
    'total', coalesce(sum(${n}), 0),
    'published', coalesce(sum(${n}) filter (where ${postCounts.published}), 0),
    'scheduled', coalesce(sum(${n}) filter (where not ${postCounts.published} and ${postCounts.scheduled}), 0)
  ) from ${postCounts})`.mapWith(toPostStats);
}

/** Dashboard counters (SPEC §2). A failed load is logged and shows zeros (SPEC §8 silent failures). */
export async function getPostStats(db: Db): Promise<PostStats> {
  try {
    const [row] = await db.select({ stats: postStatsOf() }).from(ONE_ROW);
    return row?.stats ?? NO_POST_STATS;
  } catch (error) {
    logger.error({ err: error }, "post stats failed to load");
    return NO_POST_STATS;
  }
}
