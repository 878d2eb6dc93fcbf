import { Readable, Transform } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { MIGRATIONS_DIR, type Database } from "../db/client.server";
import type { Storage } from "../storage.server";
import { BackupError, entryDigest, readArchive, verifyArchive, type Manifest } from "./archive.server";
import {
  applyMigrations,
  appliedMigration,
  columnList,
  countRows,
  ident,
  listTables,
  loadMigrations,
  resetSequences,
  type TableInfo,
} from "./database-info.server";
import { queryRows, type Executor } from "../db/query-rows.server";

export interface RestoreProgress {
  phase: "verify" | "restore";
  done: number;
  total: number;
}

export interface RestoreOptions {
  database: Database;
  storage: Storage;
  file: string;
  /** Replace whatever the database and storage hold instead of refusing. */
  force?: boolean;
  migrationsFolder?: string;
  onProgress?: (progress: RestoreProgress) => void;
}

export interface RestoreSummary {
  manifest: Manifest;
  tables: number;
  rows: number;
  files: number;
  /** Set when the archive's schema was older and the restored data was migrated. */
  migratedFrom?: string;
  migration: string;
}

/**
 * Tables whose rows the app recreates by itself (settings such as a generated AUTH_SECRET, rate-limit
 * counters, spent one-time tokens): rows there do not make a database "in use", and they are replaced.
 */
const HOUSEKEEPING_TABLES = new Set(["app_settings", "rate_limits", "used_verification_tokens"]);

const INSERT_BATCH_ROWS = 500;
const INSERT_BATCH_BYTES = 4 * 1024 * 1024;

/**
 * Restores an archive written by createBackup. The whole archive is verified first; then, in ONE
 * transaction, the database is brought to the archive's schema level, every row is inserted
 * (parents before children) and any newer migrations of this app are applied on top, so an older
 * backup is migrated like an older database would be. Files are written to storage during that
 * transaction and removed again if it fails. A database or storage already holding content is
 * refused unless `force`, which replaces it.
 */
export async function restoreBackup(options: RestoreOptions): Promise<RestoreSummary> {
  const { database, storage, file } = options;
  const manifest = await verifyArchive(file, (done, total) => options.onProgress?.({ phase: "verify", done, total }));

  const migrations = loadMigrations(options.migrationsFolder ?? MIGRATIONS_DIR);
  const latest = migrations.at(-1);
  const archived = manifest.database.migration;
  if (!latest || archived.createdAt > latest.createdAt) {
    throw new BackupError(
      `This backup comes from a newer version of the site (app ${manifest.app.version}, database schema ${archived.tag}); ` +
        `this version only knows the schema up to ${latest?.tag ?? "(none)"}. Update the site to ${manifest.app.version} or later, then restore. Nothing was changed.`,
    );
  }
  const level = migrations.findIndex((m) => m.createdAt === archived.createdAt);
  if (level === -1) {
    throw new BackupError(
      `This backup's database schema (${archived.tag}) is not one this version of the site knows. Nothing was changed.`,
    );
  }

  const existingKeys = new Set<string>();
  for await (const object of storage.list()) existingKeys.add(object.key);
  const archiveKeys = new Set(manifest.files.map((f) => f.key));
  const written: string[] = [];
  const chunkTable = new Map(manifest.tables.flatMap((t) => t.chunks.map((c) => [c.path, { table: t, chunk: c }] as const)));
  const fileEntry = new Map(manifest.files.map((f) => [f.path, f]));

  try {
    await database.db.transaction(async (tx) => {
      const applied = await appliedMigration(tx);
      if (!options.force) await refuseIfInUse(tx, applied !== null, existingKeys.size);

      if (applied && applied.createdAt === archived.createdAt) {
        const present = await listTables(tx);
        if (present.length > 0)
          await tx.execute(
            sql`truncate table ${sql.join(
              present.map((t) => ident(t.name)),
              sql`, `,
            )} restart identity cascade`,
          );
      } else {
        await resetSchema(tx);
        await applyMigrations(tx, migrations.slice(0, level + 1));
      }
      await tx.execute(sql`set constraints all deferred`);
      const targets = new Map((await listTables(tx)).map((t) => [t.name, t]));
      const plans = new Map(manifest.tables.map((t) => [t.name, insertPlan(t, targets.get(t.name))]));

      let done = 0;
      await readArchive(
        file,
        async ({ path, size, stream }) => {
          const chunk = chunkTable.get(path);
          if (chunk) {
            const plan = plans.get(chunk.table.name);
            if (!plan) throw new Error(`no insert plan for ${chunk.table.name}`);
            const digest = entryDigest();
            await insertRows(tx, plan, lines(stream, digest));
            assertSame(file, path, digest.result(), chunk.chunk);
            return;
          }
          const stored = fileEntry.get(path);
          if (stored) {
            const digest = entryDigest();
            const hashing = new Transform({
              transform(data: Buffer, _encoding, callback) {
                digest.update(data);
                callback(null, data);
              },
            });
            if (!existingKeys.has(stored.key)) written.push(stored.key);
            await storage.putStream(stored.key, Readable.from(stream).pipe(hashing), size, stored.contentType);
            assertSame(file, path, digest.result(), stored);
            return;
          }
        },
        (read, total) => {
          done = read;
          options.onProgress?.({ phase: "restore", done, total });
        },
      );

      for (const table of manifest.tables) {
        const count = await countRows(tx, table.name);
        if (count !== table.rows)
          throw new BackupError(`${table.name} holds ${count} rows after the restore instead of ${table.rows}. Nothing was changed.`);
      }
      await resetSequences(tx);
      await applyMigrations(tx, migrations.slice(level + 1));
    });
  } catch (error) {
    for (const key of written) await storage.delete(key).catch(() => undefined);
    throw error;
  }
  // Only once the database is committed: --force replaces the storage's content with the archive's.
  if (options.force) for (const key of existingKeys) if (!archiveKeys.has(key)) await storage.delete(key);

  return {
    manifest,
    tables: manifest.tables.length,
    rows: manifest.tables.reduce((n, t) => n + t.rows, 0),
    files: manifest.files.length,
    migratedFrom: level < migrations.length - 1 ? archived.tag : undefined,
    migration: latest.tag,
  };
}

async function refuseIfInUse(tx: Executor, migrated: boolean, storedFiles: number): Promise<void> {
  const inUse: string[] = [];
  if (migrated) {
    for (const table of await listTables(tx)) {
      if (HOUSEKEEPING_TABLES.has(table.name)) continue;
      const rows = await countRows(tx, table.name);
      if (rows > 0) inUse.push(`${table.name} (${rows} rows)`);
    }
  }
  if (storedFiles > 0) inUse.push(`storage (${storedFiles} files)`);
  if (inUse.length > 0) {
    throw new BackupError(
      `The target is not empty: ${inUse.join(", ")}. Restore into a new, empty database and storage, ` +
        `or add --force to replace everything they hold with the backup. Nothing was changed.`,
    );
  }
}

/** Empties the public schema, whatever an older or newer schema left in it, so migrations start afresh. */
async function resetSchema(tx: Executor): Promise<void> {
  const [objects] = await queryRows(
    tx,
    sql`select (select count(*) from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public')
             + (select count(*) from pg_type t join pg_namespace n on n.oid = t.typnamespace where n.nspname = 'public' and t.typtype in ('d', 'e', 'r', 'm'))
             + (select count(*) from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = 'public') as "n"`,
    z.object({ n: z.coerce.number() }),
  );
  if (objects && objects.n > 0) {
    await tx.execute(sql`drop schema public cascade`);
    await tx.execute(sql`create schema public`);
  }
  await tx.execute(sql`drop table if exists "drizzle"."__drizzle_migrations"`);
}

interface InsertPlan {
  table: string;
  columns: string[];
  overriding: boolean;
}

function insertPlan(archived: Manifest["tables"][number], target: TableInfo | undefined): InsertPlan {
  if (!target)
    throw new BackupError(
      `The backup has a table ${archived.name} that this database does not have at the backup's schema level. Nothing was changed.`,
    );
  const missing = archived.columns.filter((c) => !target.columns.includes(c));
  if (missing.length > 0) {
    throw new BackupError(
      `The backup's table ${archived.name} has columns this database lacks (${missing.join(", ")}). Nothing was changed.`,
    );
  }
  return {
    table: archived.name,
    columns: archived.columns.filter((c) => target.insertable.includes(c)),
    overriding: target.identityAlways,
  };
}

/** NDJSON lines of an entry, hashed as they are read. */
async function* lines(stream: AsyncIterable<Buffer>, digest: ReturnType<typeof entryDigest>): AsyncGenerator<string> {
  const decoder = new StringDecoder("utf8");
  let rest = "";
  for await (const chunk of stream) {
    digest.update(chunk);
    const parts = (rest + decoder.write(chunk)).split("\n");
    rest = parts.pop() ?? "";
    yield* parts;
  }
  rest += decoder.end();
  if (rest) yield rest;
}

/**
 * PostgreSQL turns the JSON back into typed values (json_populate_recordset): the rows are passed
 * through as text and never parsed here, which is what keeps numerics and timestamps exact.
 */
async function insertRows(tx: Executor, plan: InsertPlan, rows: AsyncIterable<string>): Promise<void> {
  if (plan.columns.length === 0) return;
  const columns = columnList(plan.columns);
  const overriding = plan.overriding ? sql`overriding system value` : sql``;
  let batch: string[] = [];
  let bytes = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    const json = `[${batch.join(",")}]`;
    await tx.execute(
      sql`insert into ${ident(plan.table)} (${columns}) ${overriding} select ${columns} from json_populate_recordset(null::${ident(plan.table)}, ${json}::json)`,
    );
    batch = [];
    bytes = 0;
  };
  for await (const row of rows) {
    batch.push(row);
    bytes += row.length;
    if (batch.length >= INSERT_BATCH_ROWS || bytes >= INSERT_BATCH_BYTES) await flush();
  }
  await flush();
}

function assertSame(file: string, path: string, got: { bytes: number; sha256: string }, want: { bytes: number; sha256: string }) {
  if (got.bytes !== want.bytes || got.sha256 !== want.sha256) {
    throw new BackupError(
      `The archive ${file} changed while it was being restored (${path} no longer matches its checksum). Nothing was changed.`,
    );
  }
}
