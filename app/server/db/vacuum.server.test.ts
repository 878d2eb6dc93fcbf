import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { z } from "zod";
import { queryRows } from "~/server/db/query-rows.server";
import { createTestDatabase } from "../../../tests/helpers/databases";
import type { Database } from "./client.server";
import { listingTableNeedsVacuum, vacuumListingTable } from "./vacuum.server";

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase("pglite");
});
afterAll(async () => {
  await database.close();
});

it("vacuums blog_posts on the embedded database after many rows changed, and then not again", async () => {
  const db = database.db;
  expect(await vacuumListingTable(db)).toBe(false);
  await db.execute(sql`
    insert into blog_posts (title, slug, content, category, published, published_at)
    select 'Post ' || i, 'vacuum-' || i, 'Words of post ' || i, 'Faith', true, now() - (i || ' minutes')::interval
    from generate_series(1, 2000) as i`);
  // ANALYZE alone counts the pages but marks none all-visible (only VACUUM does).
  await db.execute(sql`analyze blog_posts`);
  expect(await listingTableNeedsVacuum(db)).toBe(true);
  expect(await vacuumListingTable(db)).toBe(true);
  // A backend sends its counts to the statistics at most once a second, at the end of a statement:
  // the insert's must have been counted before the VACUUM, not after it as rows changed since.
  await new Promise((resolve) => setTimeout(resolve, 1_100));
  await db.execute(sql`select 1`);
  expect(await listingTableNeedsVacuum(db)).toBe(false);
  const [visible] = await queryRows(
    db,
    sql`select relpages as pages, relallvisible as "allVisible" from pg_class where oid = 'blog_posts'::regclass`,
    z.object({ pages: z.number(), allVisible: z.number() }),
  );
  expect(visible?.pages).toBeGreaterThan(8);
  expect(visible?.allVisible).toBe(visible?.pages);
  expect(await vacuumListingTable(db)).toBe(false);
});
