import { sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "~/server/db/client.server";

/** What to compare of a table: every row as text, or only its `id` column (rows whose other columns move on their own). */
export type DigestOf = "rows" | "ids";

const digestRows = z.object({ rows: z.array(z.record(z.string(), z.string())) });

/**
 * A digest per table — the md5 of its rows as text, sorted, and their count — in one query: comparing
 * two of them tells whether a call changed a table, and which, without reading every row into the test.
 */
export async function tableDigests(db: Db, tables: Readonly<Record<string, DigestOf>>): Promise<Record<string, string>> {
  const names = Object.keys(tables);
  if (names.length === 0) return {};
  const columns: SQL[] = names.map((name) => {
    const row = tables[name] === "ids" ? sql`t.id::text` : sql`t::text`;
    return sql`(select md5(coalesce(string_agg(${row}, '|' order by ${row}), '')) || ' ' || count(*) from ${sql.identifier(name)} t) as ${sql.identifier(name)}`;
  });
  const result = digestRows.parse(await db.execute(sql`select ${sql.join(columns, sql`, `)}`));
  return result.rows[0] ?? {};
}
