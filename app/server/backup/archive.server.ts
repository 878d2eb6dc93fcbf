import { createHash } from "node:crypto";
import fs from "node:fs";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import tar from "tar-stream";
import { z } from "zod";
import { jsonDepth, jsonDepthMeter } from "~/lib/json-depth";
import { AppError } from "../errors.server";
import { FILE_LIMITS, formatBytes } from "../limits.server";
import { STORAGE_KEY } from "../storage.server";

export const ARCHIVE_FORMAT = "seven-fs-site-backup";
export const ARCHIVE_FORMAT_VERSION = 1;
export const MANIFEST_PATH = "manifest.json";

/** A backup or restore that cannot go ahead; the message says why and what to do. Nothing was changed. */
export class BackupError extends AppError {
  constructor(message: string) {
    super(message, 400);
  }
}

const sha256 = z.string().regex(/^[0-9a-f]{64}$/);
const entry = z.object({ path: z.string().min(1), bytes: z.number().int().nonnegative(), sha256 });

export const manifestSchema = z.object({
  format: z.literal(ARCHIVE_FORMAT),
  formatVersion: z.literal(ARCHIVE_FORMAT_VERSION),
  createdAt: z.iso.datetime(),
  app: z.object({ name: z.string(), version: z.string() }),
  database: z.object({
    kind: z.enum(["pglite", "postgres"]),
    serverVersion: z.string(),
    migration: z.object({ tag: z.string(), hash: z.string(), createdAt: z.number().int() }),
  }),
  storage: z.object({ kind: z.enum(["local", "s3"]) }),
  /** In the order a restore inserts them: parents before children. */
  tables: z.array(
    z.object({
      name: z.string().min(1),
      columns: z.array(z.string().min(1)),
      rows: z.number().int().nonnegative(),
      chunks: z.array(entry.extend({ rows: z.number().int().nonnegative() })).max(FILE_LIMITS.backupEntries),
    }),
  ),
  files: z.array(entry.extend({ key: z.string().regex(STORAGE_KEY), contentType: z.string().min(1) })).max(FILE_LIMITS.backupEntries),
  /** Stored objects listed at the start but gone when read (deleted while the backup ran). */
  skippedFiles: z.array(z.string()),
});
export type Manifest = z.infer<typeof manifestSchema>;

export const tableChunkPath = (tableIndex: number, table: string, chunk: number) =>
  `db/${String(tableIndex).padStart(3, "0")}-${encodeURIComponent(table)}/${String(chunk).padStart(6, "0")}.ndjson`;
export const filePath = (key: string) => `files/${key}`;

export interface ArchiveEntry {
  path: string;
  size: number;
  stream: AsyncIterable<Buffer>;
}

/** tar-stream's entries are streamx streams that type their chunks as unknown; they are bytes. */
async function* bytesOf(source: AsyncIterable<unknown>): AsyncGenerator<Buffer> {
  for await (const chunk of source) {
    if (chunk instanceof Uint8Array) yield Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    else throw new Error("unexpected chunk in a tar entry");
  }
}

function damaged(file: string, why: string): BackupError {
  return new BackupError(`The archive ${file} is damaged or incomplete (${why}). Nothing was changed.`);
}

/**
 * Reads a backup archive entry by entry, each entry handled (and fully consumed) before the next is
 * read, so memory stays flat whatever the archive's size. `onRead` reports compressed bytes read.
 * Errors of the archive itself become BackupError; errors thrown by `onEntry` pass through unchanged.
 */
export async function readArchive(
  file: string,
  onEntry: (entry: ArchiveEntry) => Promise<void>,
  onRead?: (bytesRead: number, totalBytes: number) => void,
): Promise<void> {
  let totalBytes: number;
  try {
    totalBytes = fs.statSync(file).size;
  } catch {
    throw new BackupError(`Cannot read the archive ${file}: no such file.`);
  }
  const input = fs.createReadStream(file);
  let bytesRead = 0;
  input.on("data", (chunk) => {
    bytesRead += chunk.length;
    onRead?.(bytesRead, totalBytes);
  });
  const gunzip = createGunzip();
  const extract = tar.extract();
  // A broken archive surfaces inside whichever entry is being read; remember the real cause.
  let archiveError: unknown;
  gunzip.on("error", (error) => (archiveError ??= error));
  extract.on("error", (error) => (archiveError ??= error));
  const feeding = pipeline(input, gunzip, extract);
  let handlerError: { error: unknown } | undefined;
  let iterationError: unknown;
  try {
    for await (const item of extract) {
      const size = item.header.size ?? 0;
      if (item.header.type !== "file") {
        item.resume();
        continue;
      }
      try {
        await onEntry({ path: item.header.name, size, stream: bytesOf(item) });
      } catch (error) {
        handlerError = { error };
        break;
      }
      item.resume();
    }
  } catch (error) {
    iterationError = error;
  }
  if (handlerError) {
    extract.destroy();
    input.destroy();
    await feeding.catch(() => undefined);
    if (archiveError !== undefined && !(handlerError.error instanceof BackupError)) throw damaged(file, messageOf(archiveError));
    throw handlerError.error;
  }
  try {
    await feeding;
  } catch (error) {
    throw damaged(file, messageOf(archiveError ?? error));
  }
  if (iterationError) throw damaged(file, messageOf(archiveError ?? iterationError));
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Hashes an entry's bytes as they go by; `lines` counts newline-terminated NDJSON rows, `longestLine`
 * is the longest row in bytes and `depth` the deepest JSON nesting (the restore's row limits).
 */
export function entryDigest() {
  const hash = createHash("sha256");
  const nesting = jsonDepthMeter();
  let bytes = 0;
  let lines = 0;
  let lineStart = 0;
  let longestLine = 0;
  return {
    update(chunk: Buffer) {
      hash.update(chunk);
      nesting.update(chunk);
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) {
        lines++;
        longestLine = Math.max(longestLine, bytes + i - lineStart);
        lineStart = bytes + i + 1;
      }
      bytes += chunk.length;
    },
    result() {
      return { bytes, lines, sha256: hash.digest("hex"), longestLine: Math.max(longestLine, bytes - lineStart), depth: nesting.max };
    },
  };
}

/** The row limits: a row bigger or deeper than FILE_LIMITS allows is refused before anything is changed. */
function checkRows(file: string, path: string, got: { longestLine: number; depth: number }) {
  if (got.longestLine > FILE_LIMITS.backupRow)
    throw new BackupError(
      `The archive ${file} has a row larger than ${formatBytes(FILE_LIMITS.backupRow)} in ${path}; this site never writes one. Nothing was changed.`,
    );
  if (got.depth > FILE_LIMITS.jsonDepth)
    throw new BackupError(
      `The archive ${file} has a row nested more than ${FILE_LIMITS.jsonDepth} levels deep in ${path}; this site never writes one. Nothing was changed.`,
    );
}

/**
 * Checks a whole archive before anything is changed: the gzip and tar framing, a manifest this app
 * understands, and every entry's size, SHA-256 and row count against it, with no entry missing or
 * extra. Returns the manifest; throws BackupError naming the first problem.
 */
export async function verifyArchive(file: string, onRead?: (bytesRead: number, totalBytes: number) => void): Promise<Manifest> {
  const seen = new Map<string, ReturnType<ReturnType<typeof entryDigest>["result"]>>();
  let manifestText: string | undefined;
  await readArchive(
    file,
    async ({ path, stream }) => {
      if (seen.has(path) || (path === MANIFEST_PATH && manifestText !== undefined)) throw damaged(file, `${path} appears twice`);
      if (seen.size >= FILE_LIMITS.backupEntries)
        throw damaged(file, `it holds more than ${FILE_LIMITS.backupEntries.toLocaleString("en-US")} entries`);
      if (path === MANIFEST_PATH) {
        const chunks: Buffer[] = [];
        let length = 0;
        for await (const chunk of stream) {
          length += chunk.length;
          if (length > FILE_LIMITS.backupManifest)
            throw damaged(file, `the manifest is larger than ${formatBytes(FILE_LIMITS.backupManifest)}`);
          chunks.push(chunk);
        }
        manifestText = Buffer.concat(chunks).toString("utf8");
        return;
      }
      const digest = entryDigest();
      for await (const chunk of stream) digest.update(chunk);
      seen.set(path, digest.result());
    },
    onRead,
  );
  if (manifestText === undefined) throw damaged(file, "it has no manifest, so it was cut short or is not a backup of this site");
  const manifest = parseManifest(file, manifestText);

  const expected = new Map<string, { bytes: number; sha256: string; rows?: number }>();
  for (const table of manifest.tables) {
    let rows = 0;
    for (const chunk of table.chunks) {
      expected.set(chunk.path, chunk);
      rows += chunk.rows;
    }
    if (rows !== table.rows) throw damaged(file, `the manifest counts ${table.rows} rows in ${table.name} but its parts hold ${rows}`);
  }
  for (const f of manifest.files) expected.set(f.path, f);
  for (const [path, want] of expected) {
    const got = seen.get(path);
    if (!got) throw damaged(file, `${path} is missing`);
    if (got.bytes !== want.bytes) throw damaged(file, `${path} has ${got.bytes} bytes instead of ${want.bytes}`);
    if (got.sha256 !== want.sha256) throw damaged(file, `${path} does not match its SHA-256 checksum`);
    if (want.rows !== undefined && got.lines !== want.rows) throw damaged(file, `${path} has ${got.lines} rows instead of ${want.rows}`);
    if (want.rows !== undefined) checkRows(file, path, got);
  }
  for (const path of seen.keys()) if (!expected.has(path)) throw damaged(file, `${path} is not in the manifest`);
  return manifest;
}

function parseManifest(file: string, text: string): Manifest {
  if (jsonDepth(text) > FILE_LIMITS.jsonDepth) throw damaged(file, `the manifest is nested more than ${FILE_LIMITS.jsonDepth} levels deep`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw damaged(file, "the manifest is not valid JSON");
  }
  const head = z.object({ format: z.string(), formatVersion: z.number() }).safeParse(json);
  if (!head.success || head.data.format !== ARCHIVE_FORMAT)
    throw new BackupError(`${file} is not a backup made by this site's backup command. Nothing was changed.`);
  if (head.data.formatVersion > ARCHIVE_FORMAT_VERSION) {
    throw new BackupError(
      `${file} was written by a newer version of the site (archive format ${head.data.formatVersion}; this version reads format ${ARCHIVE_FORMAT_VERSION}). Update the site, then restore. Nothing was changed.`,
    );
  }
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success)
    throw damaged(file, `the manifest is malformed: ${parsed.error.issues[0]?.path.join(".")} ${parsed.error.issues[0]?.message}`);
  return parsed.data;
}
