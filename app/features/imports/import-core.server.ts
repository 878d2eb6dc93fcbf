import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { and, asc, eq } from "drizzle-orm";
import type { z } from "zod";
import { saveImages } from "~/features/uploads/uploads.server";
import { fieldErrorsOf } from "~/lib/field-errors";
import type { Actor } from "~/lib/permissions";
import type { Db } from "~/server/db/client.server";
import { importMappings, user, userRoles } from "~/server/db/schema.server";
import { isAppError, ValidationError } from "~/server/errors.server";
import { OutboundFetchError, outboundFetch } from "~/server/outbound-fetch.server";
import { jsonDepth } from "~/lib/json-depth";
import { FILE_LIMITS, formatBytes, LIMITS } from "~/server/limits.server";

/**
 * What the importers share: the mapping from source rows to ours (re-runs update or skip instead of
 * creating twice), the summary they print, and re-storing remote images through the upload pipeline.
 */
export type ImportSource = "supabase" | "ghost" | "wordpress";
export type MappingKind = "post" | "media" | "project" | "image" | "comment";

type Outcome = "created" | "updated" | "skipped";

/** Reasons that are the same for many rows: counted, not listed row by row. */
export const UNCHANGED = "unchanged since the last import";
export const DELETED_HERE = "deleted here after an earlier import (not brought back)";

interface TableTally {
  created: number;
  updated: number;
  skipped: number;
  grouped: Map<string, number>;
  rows: string[];
}

export class ImportReport {
  private readonly tables = new Map<string, TableTally>();
  private readonly externalImages = new Map<string, string>();
  private readonly notes: string[] = [];

  constructor(private readonly heading: string) {}

  private tally(table: string): TableTally {
    let t = this.tables.get(table);
    if (!t) {
      t = { created: 0, updated: 0, skipped: 0, grouped: new Map(), rows: [] };
      this.tables.set(table, t);
    }
    return t;
  }

  /** Declares a table so it is listed even when it had no rows. */
  table(table: string): void {
    this.tally(table);
  }

  count(table: string, outcome: Exclude<Outcome, "skipped">): void {
    this.tally(table)[outcome]++;
  }

  /** A skipped row: with `ref` it is listed with its reason, without it the reason is counted. */
  skip(table: string, reason: string, ref?: string): void {
    const t = this.tally(table);
    t.skipped++;
    if (ref === undefined) t.grouped.set(reason, (t.grouped.get(reason) ?? 0) + 1);
    else t.rows.push(`${ref}: ${reason}`);
  }

  externalImage(url: string, reason: string): void {
    this.externalImages.set(url, reason);
  }

  note(line: string): void {
    this.notes.push(line);
  }

  get totals(): Record<Outcome, number> {
    const out = { created: 0, updated: 0, skipped: 0 };
    for (const t of this.tables.values()) {
      out.created += t.created;
      out.updated += t.updated;
      out.skipped += t.skipped;
    }
    return out;
  }

  lines(): string[] {
    const out = [this.heading];
    for (const [name, t] of this.tables) {
      out.push(`  ${name}: ${t.created} created, ${t.updated} updated, ${t.skipped} skipped`);
      for (const [reason, n] of t.grouped) out.push(`    skipped ${n}: ${reason}`);
      for (const row of t.rows) out.push(`    skipped ${row}`);
    }
    if (this.externalImages.size > 0) {
      out.push(`  Images kept as external URLs (${this.externalImages.size}):`);
      for (const [url, reason] of this.externalImages) out.push(`    ${url} (${reason})`);
    }
    for (const note of this.notes) out.push(`  ${note}`);
    return out;
  }
}

/** The messages of a failed row check, one line: "title: Title is required; category: …". */
export function problemOf(error: z.ZodError): string {
  const fields = Object.entries(fieldErrorsOf(error)).map(([field, messages]) => `${field}: ${messages.join(", ")}`);
  const whole = error.issues.filter((i) => i.path.length === 0).map((i) => i.message);
  return [...whole, ...fields].join("; ") || "invalid row";
}

/**
 * An export file's text, refused (ValidationError, its message reading after "… is") when larger than
 * FILE_LIMITS.importFile: the importers read a file whole.
 */
export function readExportFile(file: string): string {
  if (fs.statSync(file).size > FILE_LIMITS.importFile) throw new ValidationError(`larger than ${formatBytes(FILE_LIMITS.importFile)}`);
  return fs.readFileSync(file, "utf8");
}

/** JSON of an export, refused when it is not JSON or nests deeper than FILE_LIMITS.jsonDepth (the readers after it recurse). */
export function parseExportJson(text: string): unknown {
  if (jsonDepth(text) > FILE_LIMITS.jsonDepth) throw new ValidationError(`nested more than ${FILE_LIMITS.jsonDepth} levels deep`);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ValidationError(`not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
}

/** Why a row's write failed, as the summary says it. */
export function reasonOf(error: unknown): string {
  if (isAppError(error)) return error.message;
  return `failed: ${error instanceof Error ? error.message : String(error)}`;
}

export function checksumOf(value: unknown): string {
  return createHash("sha256").update(JSON.stringify(value)).digest("hex");
}

async function findMapping(db: Db, source: ImportSource, kind: MappingKind, sourceId: string) {
  const [row] = await db
    .select({ targetId: importMappings.targetId, checksum: importMappings.checksum })
    .from(importMappings)
    .where(and(eq(importMappings.source, source), eq(importMappings.kind, kind), eq(importMappings.sourceId, sourceId)))
    .limit(1);
  return row ?? null;
}

async function saveMapping(tx: Db, key: { source: ImportSource; kind: MappingKind; sourceId: string }, targetId: string, checksum: string) {
  const now = new Date();
  await tx
    .insert(importMappings)
    .values({ ...key, targetId, checksum, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: [importMappings.source, importMappings.kind, importMappings.sourceId],
      set: { targetId, checksum, updatedAt: now },
    });
}

/** Our id for a source row imported earlier, or null. */
export async function mappedId(db: Db, source: ImportSource, kind: MappingKind, sourceId: string): Promise<string | null> {
  return (await findMapping(db, source, kind, sourceId))?.targetId ?? null;
}

export interface MappedWrite {
  source: ImportSource;
  kind: MappingKind;
  sourceId: string;
  /** The summary's table name and how it names this row. */
  table: string;
  ref: string;
  /** What the write will store: a re-run with the same values is skipped as unchanged. */
  values: unknown;
  exists: (targetId: string) => Promise<boolean>;
  /** Creates (targetId null) or updates; must call `after` inside its transaction. */
  write: (targetId: string | null, after: (tx: Db, id: string) => Promise<void>) => Promise<string>;
}

/**
 * One source row: created the first time, updated when its values changed since, skipped when they
 * did not or when the owner deleted our copy. The mapping is written in the row's own transaction,
 * so a failed row leaves nothing behind and a re-run retries it.
 */
export async function writeMapped(db: Db, report: ImportReport, w: MappedWrite): Promise<string | null> {
  const key = { source: w.source, kind: w.kind, sourceId: w.sourceId };
  const checksum = checksumOf(w.values);
  try {
    const mapping = await findMapping(db, w.source, w.kind, w.sourceId);
    if (mapping && !(await w.exists(mapping.targetId))) {
      report.skip(w.table, DELETED_HERE, w.ref);
      return null;
    }
    if (mapping && mapping.checksum === checksum) {
      report.skip(w.table, UNCHANGED);
      return mapping.targetId;
    }
    const id = await w.write(mapping?.targetId ?? null, (tx, targetId) => saveMapping(tx, key, targetId, checksum));
    report.count(w.table, mapping ? "updated" : "created");
    return id;
  } catch (error) {
    report.skip(w.table, reasonOf(error), w.ref);
    return null;
  }
}

/**
 * Who the import acts as: the administrator with `email`, else the first administrator. Uploads and
 * posts need a real user (the author when the source's is not here), and the audit log names them.
 */
export async function importActor(db: Db, email: string | undefined): Promise<Actor & { email: string }> {
  const admins = await db
    .select({ id: user.id, email: user.email })
    .from(user)
    .innerJoin(userRoles, and(eq(userRoles.userId, user.id), eq(userRoles.role, "admin")))
    .orderBy(asc(user.createdAt));
  const wanted = email?.trim().toLowerCase();
  const found = wanted ? admins.find((a) => a.email.toLowerCase() === wanted) : admins[0];
  if (!found)
    throw new ValidationError(
      wanted
        ? `No administrator with email ${wanted}: imports act as an administrator (--as EMAIL).`
        : "No administrator yet: create one first (npm run cli -- create-user EMAIL --role admin).",
    );
  return { id: found.id, email: found.email, role: "admin" };
}

export async function userExists(db: Db, id: string): Promise<boolean> {
  const [row] = await db.select({ id: user.id }).from(user).where(eq(user.id, id)).limit(1);
  return row !== undefined;
}

const DOWNLOAD_TIMEOUT_MS = 20_000;

async function download(url: string): Promise<Buffer> {
  try {
    const { bytes } = await outboundFetch(url, {
      timeoutMs: DOWNLOAD_TIMEOUT_MS,
      maxBytes: LIMITS.image,
      userAgent: "7fs-portfolio-importer/1.0",
    });
    return Buffer.from(bytes);
  } catch (error) {
    if (error instanceof OutboundFetchError) throw new ValidationError(error.message);
    throw error;
  }
}

function fileNameOf(url: string): string {
  try {
    return path.posix.basename(decodeURIComponent(new URL(url).pathname)) || "image";
  } catch {
    return "image";
  }
}

export interface ImageRestorer {
  /** The URL of our copy of the image at `url`, or `url` itself when it could not be fetched or read (reported). */
  restore(url: string): Promise<string>;
  /** `text` with every URL that `pattern` (global) matches replaced by `restore`'s answer. */
  restoreIn(text: string, pattern: RegExp): Promise<string>;
}

/**
 * Downloads remote images and stores them as uploads (the same checks, resizing and storage as an
 * upload from the editor). Each URL is fetched once: the mapping remembers our copy across runs.
 */
export function imageRestorer(db: Db, actor: Actor, source: ImportSource, report: ImportReport): ImageRestorer {
  const pending = new Map<string, Promise<string>>();
  const fetchOne = async (url: string): Promise<string> => {
    const known = await mappedId(db, source, "image", url);
    if (known) return known;
    try {
      const bytes = await download(url);
      const [stored] = await saveImages(db, actor, [{ name: fileNameOf(url), bytes }]);
      if (!stored) throw new Error("the upload returned nothing");
      await saveMapping(db, { source, kind: "image", sourceId: url }, stored.url, "");
      return stored.url;
    } catch (error) {
      report.externalImage(url, isAppError(error) ? error.message : reasonOf(error));
      return url;
    }
  };
  const restore = (url: string) => {
    let p = pending.get(url);
    if (!p) {
      p = fetchOne(url);
      pending.set(url, p);
    }
    return p;
  };
  return {
    restore,
    async restoreIn(text, pattern) {
      const urls = [...new Set(Array.from(text.matchAll(pattern), (m) => m[0]))];
      let out = text;
      for (const url of urls) out = out.split(url).join(await restore(url));
      return out;
    },
  };
}
