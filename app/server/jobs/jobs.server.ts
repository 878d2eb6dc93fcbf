import { and, eq, inArray, lt, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Db } from "~/server/db/client.server";
import { notifySql } from "~/server/db/notify.server";
import { jobPacing, jobs } from "~/server/db/schema.server";

/**
 * Background jobs (docs/decisions/0020-jobs.md): a job is a row in `jobs`, enqueued in the
 * caller's transaction, run by the job runner (runner.server.ts) of any instance. Define each kind
 * once, at module level, in a module that server/app.ts imports (so every instance knows it):
 *
 *   export const publishPostJob = defineJob("posts.publish", z.object({ postId: z.uuid() }), async ({ postId }, ctx) => { ... });
 *   await db.transaction(async (tx) => { ...; await publishPostJob.enqueue(tx, { postId }, { runAt, key: `publish:${postId}` }); });
 *
 * Handlers must be idempotent: delivery is at-least-once (a process killed after the work but
 * before the job was marked done runs it again once its lease runs out).
 */

/** NOTIFY channel: a committed enqueue wakes the runners of every instance at once. */
export const JOBS_CHANNEL = "app_jobs";

export interface JobContext {
  jobId: string;
  /** 1 for the first attempt. */
  attempt: number;
  maxAttempts: number;
  /** Aborted when the job's timeout passes; long handlers should stop then. */
  signal: AbortSignal;
  /** The runner's database handle (not a transaction: open one when the work needs it). */
  db: Db;
}

export interface JobKindOptions {
  /** Attempts before the job is marked failed (default 5). Stored per job at enqueue time. */
  maxAttempts?: number;
  /** A run taking longer counts as a failed attempt (default 60 s). */
  timeoutMs?: number;
  /** First retry delay; doubles each attempt, capped at 1 hour, ±20% jitter (default 5 s). */
  retryBaseMs?: number;
  /** At most this many starts per second across all instances (e.g. subscription emails). */
  ratePerSecond?: number;
}

export interface JobDefinition<S extends z.ZodType> {
  readonly kind: string;
  readonly schema: S;
  readonly handler: (payload: z.output<S>, ctx: JobContext) => Promise<void>;
  readonly maxAttempts: number;
  readonly timeoutMs: number;
  readonly retryBaseMs: number;
  readonly ratePerSecond: number | undefined;
  /** enqueueJob for this kind, with the payload typed by its schema. */
  enqueue(db: Db, payload: z.input<S>, options?: EnqueueOptions): Promise<EnqueueResult>;
}

// Any job kind, for the registry and the runner (handlers are called only with parsed payloads).
export type AnyJobDefinition = JobDefinition<z.ZodType>;

export interface EnqueueOptions {
  /**
   * Not before this time. Default: the database's now(), the clock the runner claims by — never this
   * process's clock, which may be ahead of the database's (a job due "now" would wait that long).
   */
  runAt?: Date;
  /** Dedupe key: a second enqueue with the same key is a no-op while the first job's row exists. */
  key?: string;
  /**
   * With `key`: a job of that key that finished (done or failed) before this time is replaced by
   * the new one instead of blocking it until housekeeping prunes it (e.g. a failed fetch tried
   * again when the next request for it comes).
   */
  replaceFinishedBefore?: Date;
  maxAttempts?: number;
}

export interface EnqueueJobInput extends EnqueueOptions {
  kind: string;
  payload: unknown;
}

export interface EnqueueResult {
  id: string;
  /** False when a job with the same dedupe key already existed (nothing new was enqueued). */
  created: boolean;
}

/** A failure that retrying cannot fix (e.g. the record it concerns is gone): fail at once. */
export class PermanentJobError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PermanentJobError";
  }
}

// On globalThis so that Vite's module reloading in development keeps one registry.
const holder = globalThis as typeof globalThis & { __jobRegistry?: Map<string, AnyJobDefinition> };
const registry = (holder.__jobRegistry ??= new Map());

const KIND_NAME = /^[a-z][a-z0-9-]*(\.[a-z][a-z0-9-]*)*$/;

/** Registers a job kind (the last definition of a kind wins, for module reloading in development). */
export function defineJob<S extends z.ZodType>(
  kind: string,
  schema: S,
  handler: (payload: z.output<S>, ctx: JobContext) => Promise<void>,
  options: JobKindOptions = {},
): JobDefinition<S> {
  if (!KIND_NAME.test(kind)) throw new Error(`Invalid job kind "${kind}": use lower-case dotted names like "posts.publish"`);
  if (options.ratePerSecond !== undefined && !(options.ratePerSecond > 0)) throw new Error("ratePerSecond must be positive");
  const definition: JobDefinition<S> = {
    kind,
    schema,
    handler,
    maxAttempts: options.maxAttempts ?? 5,
    timeoutMs: options.timeoutMs ?? 60_000,
    retryBaseMs: options.retryBaseMs ?? 5_000,
    ratePerSecond: options.ratePerSecond,
    enqueue: (db, payload, enqueueOptions = {}) => enqueueJob(db, { ...enqueueOptions, kind, payload }),
  };
  registry.set(kind, definition);
  return definition;
}

export function getJobDefinition(kind: string): AnyJobDefinition | undefined {
  return registry.get(kind);
}

export function registeredJobKinds(): AnyJobDefinition[] {
  return [...registry.values()];
}

/**
 * Stores a job; pass the caller's transaction so the job commits (or rolls back) with the write
 * it belongs to. The payload is checked against the kind's schema here, so a bad payload fails the
 * caller, not the job later. Payloads are stored in the database: never put a secret in one.
 */
export async function enqueueJob(db: Db, input: EnqueueJobInput): Promise<EnqueueResult> {
  const definition = registry.get(input.kind);
  if (!definition) throw new Error(`Unknown job kind "${input.kind}" (is its module imported by server/app.ts?)`);
  const parsed = definition.schema.safeParse(input.payload);
  if (!parsed.success) throw new Error(`Invalid payload for job "${input.kind}": ${parsed.error.issues[0]?.message ?? "invalid"}`);
  const maxAttempts = input.maxAttempts ?? definition.maxAttempts;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new Error("maxAttempts must be a positive integer");
  if (input.key && input.replaceFinishedBefore)
    await db
      .delete(jobs)
      .where(and(eq(jobs.dedupeKey, input.key), inArray(jobs.state, ["done", "failed"]), lt(jobs.finishedAt, input.replaceFinishedBefore)));
  const [row] = await db
    .insert(jobs)
    .values({ kind: input.kind, payload: input.payload, runAt: input.runAt ?? sql`now()`, maxAttempts, dedupeKey: input.key ?? null })
    .onConflictDoNothing({ target: jobs.dedupeKey })
    .returning({ id: jobs.id });
  if (!row) {
    const [existing] = await db
      .select({ id: jobs.id })
      .from(jobs)
      .where(eq(jobs.dedupeKey, input.key ?? ""));
    if (!existing) throw new Error("job insert returned no row");
    return { id: existing.id, created: false };
  }
  await db.execute(notifySql(JOBS_CHANNEL, input.kind));
  return { id: row.id, created: true };
}

/** Removes a job that has not started yet (e.g. a schedule that was changed); true if one was removed. */
export async function cancelJob(db: Db, key: string): Promise<boolean> {
  const deleted = await db
    .delete(jobs)
    .where(and(eq(jobs.dedupeKey, key), eq(jobs.state, "pending")))
    .returning({ id: jobs.id });
  return deleted.length > 0;
}

/**
 * Deletes finished (done or failed) jobs that finished before `before` — for housekeeping. A
 * deleted job's dedupe key is free again, so keep jobs longer than a key must stay unique.
 */
export async function pruneFinishedJobs(db: Db, before: Date): Promise<number> {
  const deleted = await db
    .delete(jobs)
    .where(and(inArray(jobs.state, ["done", "failed"]), lt(jobs.finishedAt, before)))
    .returning({ id: jobs.id });
  return deleted.length;
}

/**
 * Reserves the next start slot of a paced stream (a job kind, a mail kind), shared by every instance
 * through job_pacing with one atomic upsert; returns how long to wait for it.
 */
export async function reservePacingSlot(db: Db, key: string, intervalMs: number): Promise<number> {
  const interval = sql`make_interval(secs => ${intervalMs / 1000})`;
  const [row] = await db
    .insert(jobPacing)
    .values({ kind: key, nextSlotAt: sql`now() + ${interval}` })
    .onConflictDoUpdate({
      target: jobPacing.kind,
      set: { nextSlotAt: sql`greatest(${jobPacing.nextSlotAt}, now()) + ${interval}` },
    })
    .returning({ waitMs: sql<number>`(extract(epoch from ${jobPacing.nextSlotAt} - now()) * 1000)::float8` });
  return Math.max(0, Number(row?.waitMs ?? 0) - intervalMs);
}

const MAX_DELAY_MS = 3_600_000;

/** Delay before attempt n+1 after n failed attempts: base·2^(n-1), capped at 1 hour, ±20% jitter. */
export function retryDelayMs(failedAttempts: number, baseMs: number, random: () => number = Math.random): number {
  const exponential = Math.min(MAX_DELAY_MS, baseMs * 2 ** Math.max(0, failedAttempts - 1));
  return Math.round(exponential * (0.8 + 0.4 * random()));
}

/** A short error text for the database and the admin area: first line, no credentials in URLs. */
export function errorSummary(error: unknown, maxLength = 500): string {
  const text = error instanceof Error ? error.message : String(error);
  const firstLine = text.replace(/\/\/[^\s/:@]+:[^\s/@]+@/g, "//***@").split("\n")[0] ?? "";
  return firstLine.slice(0, maxLength);
}
