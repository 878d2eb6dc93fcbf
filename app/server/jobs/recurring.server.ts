import { and, eq, isNull, lt, lte, or, sql } from "drizzle-orm";
import type { Db } from "~/server/db/client.server";
import { taskLeases } from "~/server/db/schema.server";
import { logger } from "~/server/logger.server";
import { errorSummary } from "./jobs.server";

/**
 * Recurring singleton tasks (housekeeping, scheduled backups): at most one instance runs a task at
 * a time, and the interval holds across instances (two instances do not back up twice as often).
 * A `task_leases` row per task holds when it is next due and who runs it now; the runner renews
 * the lease while the task runs, so a long task keeps it and a killed process's lease runs out and
 * another instance takes over. Define tasks at module level in a module server/app.ts imports.
 */
export interface RecurringTaskContext {
  db: Db;
  /** Aborted when the runner stops or the lease was lost; long tasks should stop then. */
  signal: AbortSignal;
}

export interface RecurringTaskOptions {
  /** How long a run may go without renewing its lease before another instance may take over (default 60 s). */
  leaseMs?: number;
  /** Delay of the very first run of a task in a new database (default 0: soon after start-up). */
  firstRunDelayMs?: number;
  /** After a failed run, try again after this long, or the interval if shorter (default 60 s). */
  retryMs?: number;
}

export interface RecurringTask {
  readonly name: string;
  readonly intervalMs: number;
  readonly fn: (ctx: RecurringTaskContext) => Promise<void>;
  readonly leaseMs: number;
  readonly firstRunDelayMs: number;
  readonly retryMs: number;
}

const holder = globalThis as typeof globalThis & { __recurringTasks?: Map<string, RecurringTask> };
const registry = (holder.__recurringTasks ??= new Map());

/** Registers a task that runs every `intervalMs` (measured from the end of the previous run). */
export function defineRecurringTask(
  name: string,
  intervalMs: number,
  fn: (ctx: RecurringTaskContext) => Promise<void>,
  options: RecurringTaskOptions = {},
): RecurringTask {
  if (!/^[a-z][a-z0-9.-]*$/.test(name)) throw new Error(`Invalid task name "${name}"`);
  if (!(intervalMs >= 0)) throw new Error("intervalMs must be zero or positive");
  const task: RecurringTask = {
    name,
    intervalMs,
    fn,
    leaseMs: Math.max(1_000, options.leaseMs ?? 60_000),
    firstRunDelayMs: options.firstRunDelayMs ?? 0,
    retryMs: options.retryMs ?? 60_000,
  };
  registry.set(name, task);
  return task;
}

export function registeredRecurringTasks(): RecurringTask[] {
  return [...registry.values()];
}

const secs = (ms: number) => sql`make_interval(secs => ${ms / 1000})`;

export type TaskAttempt =
  | { ran: true; ok: boolean }
  /** Not due or held by another instance: check again after `retryInMs`. */
  | { ran: false; retryInMs: number };

/**
 * Runs the task if it is due and no other instance holds it. `holderId` names this runner in the
 * lease; `signal` aborts the run (e.g. on shutdown).
 */
export async function runRecurringTaskIfDue(db: Db, task: RecurringTask, holderId: string, signal?: AbortSignal): Promise<TaskAttempt> {
  await db
    .insert(taskLeases)
    .values({ name: task.name, nextRunAt: sql`now() + ${secs(task.firstRunDelayMs)}` })
    .onConflictDoNothing({ target: taskLeases.name });
  const [claimed] = await db
    .update(taskLeases)
    .set({ lockedBy: holderId, lockedUntil: sql`now() + ${secs(task.leaseMs)}`, lastStartedAt: sql`now()` })
    .where(
      and(
        eq(taskLeases.name, task.name),
        lte(taskLeases.nextRunAt, sql`now()`),
        or(isNull(taskLeases.lockedUntil), lt(taskLeases.lockedUntil, sql`now()`)),
      ),
    )
    .returning({ name: taskLeases.name });
  if (!claimed) {
    const [row] = await db
      .select({
        waitMs: sql<number>`(extract(epoch from greatest(${taskLeases.nextRunAt}, coalesce(${taskLeases.lockedUntil}, ${taskLeases.nextRunAt})) - now()) * 1000)::float8`,
      })
      .from(taskLeases)
      .where(eq(taskLeases.name, task.name));
    return { ran: false, retryInMs: Math.max(0, Number(row?.waitMs ?? 0)) };
  }

  const mine = and(eq(taskLeases.name, task.name), eq(taskLeases.lockedBy, holderId));
  const controller = new AbortController();
  const abort = () => controller.abort(signal?.reason);
  signal?.addEventListener("abort", abort, { once: true });
  const heartbeat = setInterval(
    () => {
      db.update(taskLeases)
        .set({ lockedUntil: sql`now() + ${secs(task.leaseMs)}` })
        .where(mine)
        .returning({ name: taskLeases.name })
        .then(
          (rows) => {
            if (rows.length === 0) controller.abort(new Error("task lease lost"));
          },
          (error: unknown) => logger.warn({ err: error, task: task.name }, "could not renew task lease"),
        );
    },
    Math.max(250, Math.floor(task.leaseMs / 3)),
  );
  heartbeat.unref();

  let failure: unknown;
  try {
    await task.fn({ db, signal: controller.signal });
  } catch (error) {
    failure = error;
  } finally {
    clearInterval(heartbeat);
    signal?.removeEventListener("abort", abort);
  }
  const nextInMs = failure === undefined ? task.intervalMs : Math.min(task.intervalMs, task.retryMs);
  await db
    .update(taskLeases)
    .set({
      lockedBy: null,
      lockedUntil: null,
      lastFinishedAt: sql`now()`,
      nextRunAt: sql`now() + ${secs(nextInMs)}`,
      lastError: failure === undefined ? null : errorSummary(failure),
    })
    .where(mine);
  if (failure !== undefined) logger.error({ err: failure, task: task.name }, "recurring task failed");
  return { ran: true, ok: failure === undefined };
}
