import { PGlite, type QueryOptions } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, expect, it, vi } from "vitest";
import { z } from "zod";
import { queryRows } from "~/server/db/query-rows.server";
import { createTestDatabase } from "../../../tests/helpers/databases";
import { session } from "./schema.server";
import { ONE_ROW, type Database } from "./client.server";

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase("pglite");
});
afterAll(async () => {
  await database.close();
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** The options of every statement that reaches PGlite's own query(). */
function spyOnQueries(): Array<QueryOptions | undefined> {
  const seen: Array<QueryOptions | undefined> = [];
  const query = PGlite.prototype.query;
  vi.spyOn(PGlite.prototype, "query").mockImplementation(function (this: PGlite, text, params, options) {
    seen.push(options);
    return query.call(this, text, params, options);
  });
  return seen;
}

const SAMPLE = sql`select '2024-01-02 03:04:05'::timestamp as ts, '2024-01-02 03:04:05+00'::timestamptz as tz,
  '2024-01-02'::date as day, '1 day'::interval as span, array['a', 'b'] as words, 5::int as n, '{"a": 1}'::jsonb as doc,
  array['2024-01-02 03:04:05'::timestamp] as stamps`;

const EXPECTED = {
  ts: "2024-01-02 03:04:05",
  tz: "2024-01-02 03:04:05+00",
  day: "2024-01-02",
  span: "1 day",
  words: ["a", "b"],
  n: 5,
  doc: { a: 1 },
  stamps: '{"2024-01-02 03:04:05"}',
};

it("drizzle's statements reach PGlite without its per-statement parsers, values parsed as drizzle asked", async () => {
  const seen = spyOnQueries();
  expect(await queryRows(database.db, SAMPLE, z.unknown())).toEqual([EXPECTED]);
  const inTransaction = await database.db.transaction((tx) => queryRows(tx, SAMPLE, z.unknown()));
  expect(inTransaction).toEqual([EXPECTED]);
  // drizzle's own column mapping still turns the text into a Date.
  const [row] = await database.db.select({ at: sql`'2024-01-02 03:04:05+00'::timestamptz`.mapWith(session.expiresAt) }).from(ONE_ROW);
  expect(row?.at).toEqual(new Date("2024-01-02T03:04:05Z"));
  // A transaction's statements go through PGlite's transaction object, not query().
  expect(seen).toHaveLength(2);
  // If a drizzle upgrade changes the types it asks for, its parsers go through again (correct but
  // slow): this is the test that notices.
  for (const options of seen) expect(options?.parsers).toBeUndefined();
});
