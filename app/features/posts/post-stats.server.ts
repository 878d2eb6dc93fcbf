import type { Db } from "~/server/db/client.server";
import { logger } from "~/server/logger.server";
import { postCountRows, sumCounts, type PostCountRow } from "./post-counts.server";

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
    const rows = await postCountRows(db);
    const sum = (match?: (r: PostCountRow) => boolean) => sumCounts(rows, match);
    const total = sum();
    const published = sum((r) => r.published);
    const scheduled = sum((r) => !r.published && r.scheduled);
    return { total, published, drafts: total - published - scheduled, scheduled };
  } catch (error) {
    logger.error({ err: error }, "post stats failed to load");
    return { total: 0, published: 0, drafts: 0, scheduled: 0 };
  }
}
