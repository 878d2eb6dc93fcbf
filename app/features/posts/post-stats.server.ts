import { sql } from "drizzle-orm";
import type { Db } from "~/server/db/client.server";
import { blogPosts } from "~/server/db/schema.server";
import { logger } from "~/server/logger.server";

export interface PostStats {
  total: number;
  published: number;
  drafts: number;
  /** Waiting for their publish time (not counted in drafts). */
  scheduled: number;
}

/** Dashboard counters (SPEC §2). A failed load is logged and shows zeros (SPEC §8 silent failures). */
export async function getPostStats(db: Db): Promise<PostStats> {
  try {
    const [row] = await db
      .select({
        total: sql<number>`count(*)::int`,
        published: sql<number>`count(*) filter (where ${blogPosts.published})::int`,
        scheduled: sql<number>`count(*) filter (where not ${blogPosts.published} and ${blogPosts.scheduledAt} is not null)::int`,
      })
      .from(blogPosts);
    const total = row?.total ?? 0;
    const published = row?.published ?? 0;
    const scheduled = row?.scheduled ?? 0;
    return { total, published, drafts: total - published - scheduled, scheduled };
  } catch (error) {
    logger.error({ err: error }, "post stats failed to load");
    return { total: 0, published: 0, drafts: 0, scheduled: 0 };
  }
}
