import fs from "node:fs";
import path from "node:path";
import { sql, type SQL } from "drizzle-orm";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { z } from "zod";
import { queryRows, type Executor } from "../db/query-rows.server";

export interface TableInfo {
  name: string;
  columns: string[];
  /** Columns a restore writes: generated columns are computed again instead. */
  insertable: string[];
  /** An identity column GENERATED ALWAYS needs OVERRIDING SYSTEM VALUE to take the stored values. */
  identityAlways: boolean;
}

/**
 * Tables derived from others by triggers (drizzle/0021_14-db100k-counts.sql, 0049_25-slot-stamp.sql): not
 * backed up, as restoring the rows they derive from rebuilds them (and restoring both would count twice).
 */
export const DERIVED_TABLES: readonly string[] = ["post_counts", "booking_slot_stamp"];

/**
 * Every table of the `public` schema but DERIVED_TABLES, read from the catalogue rather than from the Drizzle schema so
 * that a table added by a future migration is backed up without anyone remembering to list it.
 * Ordered so that a table comes after every table its foreign keys point to.
 */
export async function listTables(exec: Executor): Promise<TableInfo[]> {
  const columns = await queryRows(
    exec,
    sql`select c.table_name as "table", c.column_name as "column", c.is_generated as "generated", c.identity_generation as "identity"
        from information_schema.columns c
        join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
        where c.table_schema = 'public' and t.table_type = 'BASE TABLE'
        order by c.table_name, c.ordinal_position`,
    z.object({ table: z.string(), column: z.string(), generated: z.string().nullable(), identity: z.string().nullable() }),
  );
  const tables = new Map<string, TableInfo>();
  for (const c of columns) {
    if (DERIVED_TABLES.includes(c.table)) continue;
    const table = tables.get(c.table) ?? { name: c.table, columns: [], insertable: [], identityAlways: false };
    table.columns.push(c.column);
    if (c.generated !== "ALWAYS") table.insertable.push(c.column);
    if (c.identity === "ALWAYS") table.identityAlways = true;
    tables.set(c.table, table);
  }
  const edges = await queryRows(
    exec,
    sql`select child.relname as "child", parent.relname as "parent"
        from pg_constraint con
        join pg_class child on child.oid = con.conrelid
        join pg_class parent on parent.oid = con.confrelid
        join pg_namespace n on n.oid = child.relnamespace
        where con.contype = 'f' and n.nspname = 'public'`,
    z.object({ child: z.string(), parent: z.string() }),
  );
  return foreignKeyOrder([...tables.values()], edges);
}

/** Parents before children (self-references ignored); a cycle, if one ever appears, keeps name order. */
export function foreignKeyOrder<T extends { name: string }>(tables: T[], edges: { child: string; parent: string }[]): T[] {
  const byName = new Map(tables.map((t) => [t.name, t]));
  const parents = new Map(tables.map((t) => [t.name, new Set<string>()]));
  for (const { child, parent } of edges) {
    if (child !== parent && byName.has(parent)) parents.get(child)?.add(parent);
  }
  const ordered: T[] = [];
  const remaining = [...tables].sort((a, b) => (a.name < b.name ? -1 : 1));
  while (remaining.length > 0) {
    const done = new Set(ordered.map((t) => t.name));
    const index = remaining.findIndex((t) => [...(parents.get(t.name) ?? [])].every((p) => done.has(p)));
    ordered.push(...remaining.splice(index === -1 ? 0 : index, 1));
  }
  return ordered;
}

export const ident = (name: string) => sql.identifier(name);

export function columnList(columns: string[]): SQL {
  return sql.join(
    columns.map((c) => ident(c)),
    sql`, `,
  );
}

export async function countRows(exec: Executor, table: string): Promise<number> {
  const [row] = await queryRows(exec, sql`select count(*)::int as "n" from ${ident(table)}`, z.object({ n: z.number() }));
  return row?.n ?? 0;
}

/** Serial and identity sequences continue after the highest restored value. */
export async function resetSequences(exec: Executor): Promise<void> {
  const owned = await queryRows(
    exec,
    sql`select table_name as "table", column_name as "column", pg_get_serial_sequence(quote_ident(table_name), column_name) as "sequence"
        from information_schema.columns
        where table_schema = 'public' and (column_default like 'nextval(%' or is_identity = 'YES')`,
    z.object({ table: z.string(), column: z.string(), sequence: z.string().nullable() }),
  );
  for (const { table, column, sequence } of owned) {
    if (!sequence) continue;
    // setval is strict: on an empty table max() is null and the sequence keeps its start value.
    await exec.execute(sql`select setval(${sequence}, (select max(${ident(column)}) from ${ident(table)}))`);
  }
}

// ---- Migrations ----

export interface Migration {
  tag: string;
  hash: string;
  /** Drizzle's `folderMillis`: what it stores as `created_at` and compares to find pending migrations. */
  createdAt: number;
  statements: string[];
}

const journalSchema = z.object({ entries: z.array(z.object({ tag: z.string(), when: z.number() })) });

/** The app's migrations in order, with the tags Drizzle's reader leaves out. */
export function loadMigrations(folder: string): Migration[] {
  const journal = journalSchema.parse(JSON.parse(fs.readFileSync(path.join(folder, "meta", "_journal.json"), "utf8")));
  const files = readMigrationFiles({ migrationsFolder: folder });
  return files.map((file, i) => ({
    tag: journal.entries[i]?.tag ?? `#${i}`,
    hash: file.hash,
    createdAt: file.folderMillis,
    statements: file.sql,
  }));
}

export interface AppliedMigration {
  hash: string;
  createdAt: number;
}

/** The last migration applied to this database, or null when it has never been migrated. */
export async function appliedMigration(exec: Executor): Promise<AppliedMigration | null> {
  const [present] = await queryRows(
    exec,
    sql`select to_regclass('drizzle.__drizzle_migrations') is not null as "present"`,
    z.object({ present: z.boolean() }),
  );
  if (!present?.present) return null;
  const [last] = await queryRows(
    exec,
    sql`select hash, created_at::text as "createdAt" from drizzle.__drizzle_migrations order by created_at desc limit 1`,
    z.object({ hash: z.string(), createdAt: z.coerce.number() }),
  );
  return last ?? null;
}

/**
 * Applies migrations inside the caller's transaction, keeping Drizzle's own bookkeeping table
 * exactly as its migrator does (same schema, columns and values), so the server's start-up
 * migration sees them as applied. Drizzle's migrator cannot be used here: it opens its own
 * transaction, and a restore must be one transaction from the first DROP to the last migration.
 */
export async function applyMigrations(exec: Executor, migrations: Migration[]): Promise<void> {
  await exec.execute(sql`create schema if not exists "drizzle"`);
  await exec.execute(
    sql`create table if not exists "drizzle"."__drizzle_migrations" (id serial primary key, hash text not null, created_at bigint)`,
  );
  for (const migration of migrations) {
    for (const statement of migration.statements) await exec.execute(sql.raw(statement));
    await exec.execute(
      sql`insert into "drizzle"."__drizzle_migrations" ("hash", "created_at") values (${migration.hash}, ${migration.createdAt})`,
    );
  }
}
