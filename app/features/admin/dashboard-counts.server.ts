import { NO_POST_STATS, postStatsOf, type PostStats } from "~/features/posts/read/post-counts.server";
import { projectCountOf } from "~/features/projects/project-admin.server";
import { type Db, ONE_ROW } from "~/server/db/client.server";
import { logger } from "~/server/logger.server";

export interface DashboardCounts {
  posts: PostStats;
  projects: number;
}

/**
 * The dashboard's counters (SPEC §2) in one statement: each statement costs PGlite several round
 * trips into its WebAssembly instance. A failed load is logged and shows zeros (SPEC §8 silent failures).
 */
export async function getDashboardCounts(db: Db): Promise<DashboardCounts> {
  try {
    const [row] = await db.select({ posts: postStatsOf(), projects: projectCountOf() }).from(ONE_ROW);
    return { posts: row?.posts ?? NO_POST_STATS, projects: row?.projects ?? 0 };
  } catch (error) {
    logger.error({ err: error }, "dashboard counts failed to load");
    return { posts: NO_POST_STATS, projects: 0 };
  }
}
