import { sql } from "drizzle-orm";
import { z } from "zod";
import { queryRows } from "./query-rows.server";
import { logger } from "~/server/logger.server";
import type { Db } from "./client.server";

/**
 * VACUUM for the embedded database, which has no autovacuum (docs/decisions/0042-db-tails.md).
 * Listings read a page through an index-only scan ("deferred join"): fast only where the visibility
 * map says the table's pages are all-visible, and only VACUUM sets it. PostgreSQL's autovacuum does
 * that on its own; PGlite runs no background worker, so the pglite.vacuum task (server/jobs.ts) does it for blog_posts.
 */
const tableState = z.object({
  pages: z.coerce.number(),
  allVisible: z.coerce.number(),
  changed: z.coerce.number(),
  live: z.coerce.number(),
});

/**
 * Whether blog_posts needs a VACUUM: rows inserted, updated or deleted since the last one (counted
 * from this process's start), or pages not marked all-visible when it was last measured (after a
 * restart the counters start at zero, so an import made before it is caught by this).
 */
export async function listingTableNeedsVacuum(db: Db): Promise<boolean> {
  // A backend sends its row counts to the statistics at most once a second: without this, rows
  // written just before would be counted after the next VACUUM, as if written since it.
  await db.execute(sql`select pg_stat_force_next_flush()`);
  const [state] = await queryRows(
    db,
    sql`select c.relpages as pages, c.relallvisible as "allVisible",
               coalesce(s.n_dead_tup + s.n_ins_since_vacuum, 0) as changed, coalesce(s.n_live_tup, 0) as live
          from pg_class c left join pg_stat_user_tables s on s.relid = c.oid
         where c.oid = 'blog_posts'::regclass`,
    tableState,
  );
  if (!state) return false;
  // A few changed rows cost a few heap reads; a VACUUM of a large table costs ~1 s on PGlite, during
  // which the one connection answers nothing else.
  if (state.changed >= 50 + state.live / 50) return true;
  return state.pages > 8 && state.allVisible < state.pages * 0.9;
}

/** VACUUMs blog_posts when it needs it (see above); true when it did. */
export async function vacuumListingTable(db: Db): Promise<boolean> {
  if (!(await listingTableNeedsVacuum(db))) return false;
  const started = performance.now();
  await db.execute(sql`vacuum (analyze) blog_posts`);
  logger.info({ ms: Math.round(performance.now() - started) }, "blog_posts vacuumed");
  return true;
}
