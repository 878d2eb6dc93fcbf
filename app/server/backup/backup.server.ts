import fs from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import { sql } from "drizzle-orm";
import tar from "tar-stream";
import { z } from "zod";
import packageJson from "../../../package.json";
import { MIGRATIONS_DIR, type Database } from "../db/client.server";
import type { Storage } from "../storage.server";
import {
  ARCHIVE_FORMAT,
  ARCHIVE_FORMAT_VERSION,
  BackupError,
  entryDigest,
  filePath,
  MANIFEST_PATH,
  tableChunkPath,
  type Manifest,
} from "./archive.server";
import { appliedMigration, columnList, countRows, ident, listTables, loadMigrations } from "./database-info.server";
import { queryRows, type Executor } from "../db/query-rows.server";

export interface BackupProgress {
  phase: "database" | "files";
  done: number;
  total: number;
}

export interface BackupOptions {
  database: Database;
  storage: Storage;
  file: string;
  migrationsFolder?: string;
  onProgress?: (progress: BackupProgress) => void;
}

export interface BackupSummary {
  file: string;
  bytes: number;
  tables: number;
  rows: number;
  files: number;
  fileBytes: number;
  skippedFiles: string[];
  manifest: Manifest;
}

/** Rows per FETCH from the cursor, and the size at which a table's NDJSON part is closed. */
const FETCH_ROWS = 1000;
const CHUNK_BYTES = 8 * 1024 * 1024;

/** Adds one entry, waiting until the archive has taken it so memory holds at most one chunk. */
function addEntry(
  pack: tar.Pack,
  name: string,
  size: number,
  source: Iterable<Buffer> | AsyncIterable<Buffer>,
  onChunk?: (chunk: Buffer) => void,
) {
  return new Promise<void>((resolve, reject) => {
    const sink = pack.entry({ name, size, mode: 0o644, mtime: new Date() }, (error) => (error ? reject(error) : resolve()));
    (async () => {
      for await (const chunk of source) {
        onChunk?.(chunk);
        if (!sink.write(chunk)) await new Promise<void>((resume) => sink.once("drain", () => resume()));
      }
      sink.end(null);
    })().catch((error: unknown) => {
      sink.destroy(error instanceof Error ? error : new Error(String(error)));
      reject(error);
    });
  });
}

/**
 * Writes one .tar.gz: every table of the public schema as NDJSON parts read from one repeatable-read,
 * read-only transaction (a consistent snapshot), then every stored file, then the manifest with
 * versions, counts and SHA-256 checksums. Rows are serialised by PostgreSQL itself (row_to_json) and
 * never parsed here, so timestamps, numerics, jsonb, bytea and arrays keep their exact values.
 * The archive is written under a temporary name and renamed only once complete.
 */
export async function createBackup(options: BackupOptions): Promise<BackupSummary> {
  const { database, storage, file } = options;
  const target = path.resolve(file);
  if (fs.existsSync(target)) throw new BackupError(`${file} already exists: choose a new file name for the backup.`);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const partial = `${target}.partial-${process.pid}`;

  const pack = tar.pack();
  const writing = pipeline(pack, createGzip({ level: 6 }), fs.createWriteStream(partial, { mode: 0o600 }));
  writing.catch(() => undefined);
  try {
    const appMigrations = loadMigrations(options.migrationsFolder ?? MIGRATIONS_DIR);
    const snapshot = await database.db.transaction(
      async (tx) => {
        await tx.execute(sql`set local timezone = 'UTC'`);
        await tx.execute(sql`set local bytea_output = 'hex'`);
        await tx.execute(sql`set local extra_float_digits = 1`);
        const applied = await appliedMigration(tx);
        if (!applied) throw new BackupError("The database has no tables yet: there is nothing to back up.");
        const known = appMigrations.find((m) => m.createdAt === applied.createdAt);
        const [version] = await queryRows(tx, sql`select version() as "v"`, z.object({ v: z.string() }));
        const tables = await listTables(tx);
        const counts = new Map<string, number>();
        for (const table of tables) counts.set(table.name, await countRows(tx, table.name));
        const total = [...counts.values()].reduce((a, b) => a + b, 0);
        let done = 0;
        const written: Manifest["tables"] = [];
        for (const [index, table] of tables.entries()) {
          const chunks = await dumpTable(tx, pack, index, table.name, table.columns, (rows) => {
            done += rows;
            options.onProgress?.({ phase: "database", done, total });
          });
          written.push({ name: table.name, columns: table.columns, rows: chunks.reduce((n, c) => n + c.rows, 0), chunks });
        }
        return {
          tables: written,
          serverVersion: version?.v ?? "unknown",
          migration: { tag: known?.tag ?? "unknown", hash: applied.hash, createdAt: applied.createdAt },
        };
      },
      { isolationLevel: "repeatable read", accessMode: "read only" },
    );

    // Files after the snapshot: listed first (keys only) so progress has a total.
    const objects = [];
    for await (const object of storage.list()) objects.push(object);
    const totalFileBytes = objects.reduce((n, o) => n + o.size, 0);
    let doneBytes = 0;
    const files: Manifest["files"] = [];
    const skippedFiles: string[] = [];
    for (const object of objects) {
      const opened = await storage.openRead(object.key);
      if (!opened) {
        skippedFiles.push(object.key);
        continue;
      }
      const digest = entryDigest();
      await addEntry(pack, filePath(object.key), opened.size, opened.stream, (chunk) => {
        digest.update(chunk);
        doneBytes += chunk.length;
        options.onProgress?.({ phase: "files", done: doneBytes, total: totalFileBytes });
      });
      const { bytes, sha256 } = digest.result();
      files.push({ path: filePath(object.key), key: object.key, bytes, sha256, contentType: opened.contentType });
    }

    const manifest: Manifest = {
      format: ARCHIVE_FORMAT,
      formatVersion: ARCHIVE_FORMAT_VERSION,
      createdAt: new Date().toISOString(),
      app: { name: packageJson.name, version: packageJson.version },
      database: { kind: database.kind, serverVersion: snapshot.serverVersion, migration: snapshot.migration },
      storage: { kind: storage.kind },
      tables: snapshot.tables,
      files,
      skippedFiles,
    };
    const manifestBytes = Buffer.from(JSON.stringify(manifest, null, 2));
    await addEntry(pack, MANIFEST_PATH, manifestBytes.length, [manifestBytes]);
    pack.finalize();
    await writing;
    const handle = fs.openSync(partial, "r");
    fs.fsyncSync(handle);
    fs.closeSync(handle);
    fs.renameSync(partial, target);
    return {
      file: target,
      bytes: fs.statSync(target).size,
      tables: manifest.tables.length,
      rows: manifest.tables.reduce((n, t) => n + t.rows, 0),
      files: files.length,
      fileBytes: files.reduce((n, f) => n + f.bytes, 0),
      skippedFiles,
      manifest,
    };
  } catch (error) {
    pack.destroy();
    await writing.catch(() => undefined);
    fs.rmSync(partial, { force: true });
    throw error;
  }
}

/** Streams one table through a cursor into NDJSON parts of at most CHUNK_BYTES (or one row). */
async function dumpTable(
  tx: Executor,
  pack: tar.Pack,
  tableIndex: number,
  table: string,
  columns: string[],
  onRows: (rows: number) => void,
): Promise<Manifest["tables"][number]["chunks"]> {
  const chunks: Manifest["tables"][number]["chunks"] = [];
  let buffered: Buffer[] = [];
  let bufferedBytes = 0;
  let bufferedRows = 0;
  const flush = async () => {
    if (bufferedRows === 0 && chunks.length > 0) return;
    const name = tableChunkPath(tableIndex, table, chunks.length + 1);
    const digest = entryDigest();
    await addEntry(pack, name, bufferedBytes, buffered, (chunk) => digest.update(chunk));
    const { bytes, sha256 } = digest.result();
    chunks.push({ path: name, bytes, sha256, rows: bufferedRows });
    buffered = [];
    bufferedBytes = 0;
    bufferedRows = 0;
  };
  // Only the listed columns: a row's JSON keys are then exactly the columns the manifest names.
  await tx.execute(
    sql`declare backup_rows no scroll cursor for select row_to_json(r)::text as "line" from (select ${columnList(columns)} from ${ident(table)}) r`,
  );
  for (;;) {
    const rows = await queryRows(tx, sql.raw(`fetch forward ${FETCH_ROWS} from backup_rows`), z.object({ line: z.string() }));
    if (rows.length === 0) break;
    for (const { line } of rows) {
      // Raw line breaks can only be insignificant whitespace inside a `json` column; NDJSON needs one row per line.
      const bytes = Buffer.from(`${line.replace(/[\r\n]/g, " ")}\n`);
      buffered.push(bytes);
      bufferedBytes += bytes.length;
      bufferedRows++;
      if (bufferedBytes >= CHUNK_BYTES) await flush();
    }
    onRows(rows.length);
  }
  await tx.execute(sql`close backup_rows`);
  // An empty table still gets one (empty) part, so every table is visible in the archive.
  if (bufferedRows > 0 || chunks.length === 0) await flush();
  return chunks;
}
