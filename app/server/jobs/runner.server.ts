import { randomUUID } from "node:crypto";
import os from "node:os";
import { and, eq, inArray, lt, lte, or, sql } from "drizzle-orm";
import { getDatabase, type Database, type Db } from "~/server/db/client.server";
import { jobs } from "~/server/db/schema.server";
import { getEnv } from "~/server/env.server";
import { logger } from "~/server/logger.server";
import {
  errorSummary,
  getJobDefinition,
  JOBS_CHANNEL,
  PermanentJobError,
  reservePacingSlot,
  registeredJobKinds,
  retryDelayMs,
  type AnyJobDefinition,
} from "./jobs.server";
import { Poller } from "./poller.server";
import { registeredRecurringTasks, runRecurringTaskIfDue, type RecurringTask } from "./recurring.server";

/**
 * The in-process job runner: every instance runs one. It claims due jobs with FOR UPDATE SKIP
 * LOCKED under a lease (so instances never run one job at once, and a killed process's job is run
 * again once the lease runs out), runs their handlers with a timeout, and records done, a retry
 * with exponential backoff, or failed after the last attempt. It wakes on a NOTIFY from any
 * instance's enqueue and otherwise polls. It also runs the recurring tasks (recurring.server.ts).
 */
export interface JobRunnerOptions {
  database?: () => Database;
  /** Poll interval (default JOBS_POLL_MS, 1 s). */
  pollMs?: number;
  /** Unpaced jobs claimed per round, run in parallel (default 10). */
  batchSize?: number;
  /** Only these job kinds (default: every registered kind). */
  kinds?: readonly string[];
  /** Only these recurring tasks (default: every registered task; [] for none). */
  tasks?: readonly string[];
}

interface ClaimedJob {
  id: string;
  kind: string;
  payload: unknown;
  attempts: number;
  maxAttempts: number;
}

const secs = (ms: number) => sql`make_interval(secs => ${ms / 1000})`;
const LEASE_MARGIN_MS = 30_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class JobRunner {
  readonly id = `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly database: () => Database;
  private readonly batchSize: number;
  private readonly kinds: readonly string[] | undefined;
  private readonly taskNames: readonly string[] | undefined;
  private readonly jobPoller: Poller;
  private readonly taskPoller: Poller;
  private readonly runningTasks = new Map<string, Promise<void>>();
  private readonly taskDueAt = new Map<string, number>();
  private stopController = new AbortController();
  private unlisten: (() => Promise<void>) | undefined;

  constructor(options: JobRunnerOptions = {}) {
    this.database = options.database ?? getDatabase;
    this.batchSize = options.batchSize ?? 10;
    this.kinds = options.kinds;
    this.taskNames = options.tasks;
    const pollMs = options.pollMs ?? getEnv().JOBS_POLL_MS;
    this.jobPoller = new Poller("jobs", pollMs, () => this.drain());
    this.taskPoller = new Poller("recurring tasks", pollMs, () => this.startDueTasks());
  }

  private get db(): Db {
    return this.database().db;
  }

  async start(): Promise<void> {
    if (this.jobPoller.isRunning) return;
    this.stopController = new AbortController();
    try {
      this.unlisten = await this.database().listen(JOBS_CHANNEL, () => this.jobPoller.nudge());
    } catch (error) {
      // Polling still finds every job; the listener reconnects by itself.
      logger.warn({ err: error }, "job runner could not listen for enqueued jobs; polling only");
    }
    this.jobPoller.start();
    this.taskPoller.start();
  }

  /** Stops claiming, aborts running recurring tasks and waits for everything in progress. */
  async stop(): Promise<void> {
    this.stopController.abort(new Error("job runner stopping"));
    const unlisten = this.unlisten;
    this.unlisten = undefined;
    await unlisten?.().catch(() => undefined);
    await Promise.all([this.jobPoller.stop(), this.taskPoller.stop()]);
    await Promise.all(this.runningTasks.values());
  }

  /** Looks for due jobs now (enqueues in any instance do this through NOTIFY). */
  nudge(): void {
    this.jobPoller.nudge();
  }

  private definitions(): AnyJobDefinition[] {
    const all = registeredJobKinds();
    return this.kinds ? all.filter((d) => this.kinds?.includes(d.kind)) : all;
  }

  /** Claims and runs due jobs until none are left; returns how many were claimed. */
  async drain(): Promise<number> {
    let total = 0;
    for (;;) {
      if (this.jobPoller.halting) return total;
      const definitions = this.definitions();
      const unpaced = definitions.filter((d) => d.ratePerSecond === undefined);
      const paced = definitions.filter((d) => d.ratePerSecond !== undefined);
      const runs: Promise<void>[] = [];
      let claimed = 0;
      if (unpaced.length > 0) {
        const lease = Math.max(...unpaced.map((d) => d.timeoutMs)) + LEASE_MARGIN_MS;
        const { token, rows } = await this.claim(
          unpaced.map((d) => d.kind),
          this.batchSize,
          lease,
        );
        claimed += rows.length;
        runs.push(...rows.map((job) => this.run(job, token)));
      }
      for (const definition of paced) {
        const rate = definition.ratePerSecond ?? 1;
        // About one second's worth per round, so slots reserved ahead stay close.
        const limit = Math.max(1, Math.min(this.batchSize, Math.ceil(rate)));
        const { token, rows } = await this.claim([definition.kind], limit, definition.timeoutMs + LEASE_MARGIN_MS + (limit / rate) * 1000);
        claimed += rows.length;
        for (const job of rows) {
          const waitMs = await this.reserveSlot(definition.kind, 1000 / rate);
          runs.push(this.runPaced(job, token, waitMs, definition));
        }
      }
      await Promise.all(runs);
      if (claimed === 0) return total;
      total += claimed;
    }
  }

  private async claim(kinds: string[], limit: number, leaseMs: number): Promise<{ token: string; rows: ClaimedJob[] }> {
    const token = `${this.id}:${randomUUID()}`;
    const due = this.db
      .select({ id: jobs.id })
      .from(jobs)
      .where(
        and(
          inArray(jobs.kind, kinds),
          or(and(eq(jobs.state, "pending"), lte(jobs.runAt, sql`now()`)), and(eq(jobs.state, "running"), lt(jobs.lockedUntil, sql`now()`))),
        ),
      )
      .orderBy(jobs.runAt)
      .limit(limit)
      .for("update", { skipLocked: true });
    const rows = await this.db
      .update(jobs)
      .set({ state: "running", attempts: sql`${jobs.attempts} + 1`, lockedUntil: sql`now() + ${secs(leaseMs)}`, lockedBy: token })
      .where(inArray(jobs.id, due))
      .returning({ id: jobs.id, kind: jobs.kind, payload: jobs.payload, attempts: jobs.attempts, maxAttempts: jobs.maxAttempts });
    return { token, rows };
  }

  private reserveSlot(kind: string, intervalMs: number): Promise<number> {
    return reservePacingSlot(this.db, kind, intervalMs);
  }

  private async runPaced(job: ClaimedJob, token: string, waitMs: number, definition: AnyJobDefinition): Promise<void> {
    if (waitMs > LEASE_MARGIN_MS / 2) {
      // Many instances reserved slots ahead: extend the lease past the wait before sleeping (not
      // after, where the extra round trip would blur the start times).
      const renewed = await this.db
        .update(jobs)
        .set({ lockedUntil: sql`now() + ${secs(waitMs + definition.timeoutMs + LEASE_MARGIN_MS)}` })
        .where(this.mine(job.id, token))
        .returning({ id: jobs.id });
      if (renewed.length === 0) return;
    }
    if (waitMs > 0) await sleep(waitMs);
    await this.run(job, token);
  }

  private mine(id: string, token: string) {
    return and(eq(jobs.id, id), eq(jobs.lockedBy, token), eq(jobs.state, "running"));
  }

  private async run(job: ClaimedJob, token: string): Promise<void> {
    const definition = getJobDefinition(job.kind);
    const log = { jobId: job.id, kind: job.kind, attempt: job.attempts };
    try {
      if (!definition) throw new PermanentJobError(`No handler for job kind "${job.kind}"`);
      if (job.attempts > job.maxAttempts) {
        throw new PermanentJobError(`Gave up after ${job.maxAttempts} attempts (the last one never finished)`);
      }
      const parsed = definition.schema.safeParse(job.payload);
      if (!parsed.success) throw new PermanentJobError(`Invalid payload: ${parsed.error.issues[0]?.message ?? "invalid"}`);
      await this.withTimeout(definition.timeoutMs, (signal) =>
        definition.handler(parsed.data, { jobId: job.id, attempt: job.attempts, maxAttempts: job.maxAttempts, signal, db: this.db }),
      );
      await this.db
        .update(jobs)
        .set({ state: "done", finishedAt: sql`now()`, lockedUntil: null, lockedBy: null, lastError: null })
        .where(this.mine(job.id, token));
      logger.debug(log, "job done");
    } catch (error) {
      const failed = error instanceof PermanentJobError || job.attempts >= job.maxAttempts;
      const delayMs = retryDelayMs(job.attempts, definition?.retryBaseMs ?? 5_000);
      await this.db
        .update(jobs)
        .set({
          state: failed ? "failed" : "pending",
          lastError: errorSummary(error),
          lockedUntil: null,
          lockedBy: null,
          ...(failed ? { finishedAt: sql`now()` } : { runAt: sql`now() + ${secs(delayMs)}` }),
        })
        .where(this.mine(job.id, token))
        .catch((settleError: unknown) => logger.error({ ...log, err: settleError }, "could not record a job failure"));
      logger[failed ? "error" : "warn"]({ ...log, err: errorSummary(error) }, failed ? "job failed for good" : "job failed; will retry");
    }
  }

  private async withTimeout(timeoutMs: number, work: (signal: AbortSignal) => Promise<void>): Promise<void> {
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new Error(`Timed out after ${timeoutMs} ms`);
        // Settle first, so a handler that rejects on abort does not replace the reason.
        reject(error);
        controller.abort(error);
      }, timeoutMs);
    });
    try {
      await Promise.race([work(controller.signal), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  private tasks(): RecurringTask[] {
    const all = registeredRecurringTasks();
    return this.taskNames ? all.filter((t) => this.taskNames?.includes(t.name)) : all;
  }

  /** Starts every due recurring task not already running here; does not wait for them. */
  private async startDueTasks(): Promise<void> {
    for (const task of this.tasks()) {
      if (this.taskPoller.halting) return;
      if (this.runningTasks.has(task.name) || (this.taskDueAt.get(task.name) ?? 0) > Date.now()) continue;
      const run = runRecurringTaskIfDue(this.db, task, this.id, this.stopController.signal)
        .then((attempt) => {
          if (!attempt.ran) this.taskDueAt.set(task.name, Date.now() + attempt.retryInMs);
          else this.taskPoller.nudge();
        })
        .catch((error: unknown) => logger.error({ err: error, task: task.name }, "could not run recurring task"))
        .finally(() => this.runningTasks.delete(task.name));
      this.runningTasks.set(task.name, run);
    }
  }
}

// One runner per process; on globalThis so that Vite's module reloading in development keeps it.
const holder = globalThis as typeof globalThis & { __jobRunner?: JobRunner };

/** Starts this process's job runner (server start-up, after migrations). */
export async function startJobRunner(): Promise<void> {
  holder.__jobRunner ??= new JobRunner();
  await holder.__jobRunner.start();
}

/** Stops it and waits for running jobs and tasks (server shutdown, before the database closes). */
export async function stopJobRunner(): Promise<void> {
  const runner = holder.__jobRunner;
  holder.__jobRunner = undefined;
  await runner?.stop();
}
