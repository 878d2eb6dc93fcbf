import { eq, inArray, sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { jobs, taskLeases } from "~/server/db/schema.server";
import { describeEachDatabase } from "../../../tests/helpers/databases";
import { eventually, useSecondHandle } from "../../../tests/helpers/second-handle";
import { cancelJob, defineJob, enqueueJob, errorSummary, PermanentJobError, pruneFinishedJobs, retryDelayMs } from "./jobs.server";
import { defineRecurringTask, runRecurringTaskIfDue } from "./recurring.server";
import { JobRunner, type JobRunnerOptions } from "./runner.server";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Start times keep the rate: the k-th start (k from 0) comes no sooner than k intervals after `since`, a
 * time taken before the first slot was reserved (slots are reserved k intervals after the first, shared by
 * every runner through job_pacing). A loaded machine only delays starts, so this never fails for being
 * slow; unpaced, or paced per runner instead of shared, the later starts come several intervals early.
 * 5 ms for the millisecond rounding of the clocks and timers.
 */
function expectPaced(starts: number[], since: number, intervalMs: number) {
  const sorted = [...starts].sort((a, b) => a - b);
  const early = sorted.map((at, k) => ({ k, early: since + k * intervalMs - at })).filter((s) => s.early > 5);
  expect(early, "starts earlier than their slot").toEqual([]);
}
let unique = 0;
/** A kind name of its own per test, so runners of one test never see another test's jobs. */
const kindName = (label: string) => `test.${label}-${++unique}`;

describe("job helpers", () => {
  it("backs off exponentially with ±20% jitter, capped at an hour", () => {
    expect(retryDelayMs(1, 1000, () => 0.5)).toBe(1000);
    expect(retryDelayMs(3, 1000, () => 0.5)).toBe(4000);
    expect(retryDelayMs(1, 1000, () => 0)).toBe(800);
    expect(retryDelayMs(1, 1000, () => 1)).toBe(1200);
    expect(retryDelayMs(40, 1000, () => 0.5)).toBe(3_600_000);
  });

  it("keeps error texts short, on one line, without credentials", () => {
    expect(errorSummary(new Error("connect to smtp://user:s3cret@mail.example failed\n    at stack"))).toBe(
      "connect to smtp://***@mail.example failed",
    );
    expect(errorSummary("x".repeat(900))).toHaveLength(500);
  });
});

describeEachDatabase("job runner", (ctx) => {
  const runners: JobRunner[] = [];
  const runner = (kinds: string[], options: Omit<JobRunnerOptions, "kinds"> = {}) => {
    const created = new JobRunner({ database: () => ctx.database, tasks: [], pollMs: 60_000, ...options, kinds });
    runners.push(created);
    return created;
  };
  afterEach(async () => {
    await Promise.all(runners.splice(0).map((r) => r.stop()));
  });
  const rowOf = async (id: string) => (await ctx.db.select().from(jobs).where(eq(jobs.id, id)))[0];

  it("refuses unknown kinds, bad kind names and payloads that do not match the schema", async () => {
    const kind = kindName("strict");
    defineJob(kind, z.object({ n: z.number() }), async () => undefined);
    expect(() => defineJob("Bad Kind", z.object({}), async () => undefined)).toThrow(/Invalid job kind/);
    await expect(enqueueJob(ctx.db, { kind: "test.nobody-defined-this", payload: {} })).rejects.toThrow(/Unknown job kind/);
    await expect(enqueueJob(ctx.db, { kind, payload: { n: "one" } })).rejects.toThrow(/Invalid payload/);
    expect(await ctx.db.select().from(jobs).where(eq(jobs.kind, kind))).toHaveLength(0);
  });

  it("runs a job once with its payload and records it done", async () => {
    const calls: unknown[] = [];
    const job = defineJob(kindName("once"), z.object({ postId: z.string() }), async (payload, jobCtx) => {
      calls.push({ payload, attempt: jobCtx.attempt });
    });
    const { id, created } = await job.enqueue(ctx.db, { postId: "p1" });
    expect(created).toBe(true);
    const r = runner([job.kind]);
    expect(await r.drain()).toBe(1);
    expect(await r.drain()).toBe(0);
    expect(calls).toEqual([{ payload: { postId: "p1" }, attempt: 1 }]);
    const row = await rowOf(id);
    expect(row).toMatchObject({ state: "done", attempts: 1, lastError: null, lockedUntil: null, lockedBy: null });
    expect(row?.finishedAt).toBeInstanceOf(Date);
  });

  it("does not run a job before its run_at", async () => {
    let ran = 0;
    const job = defineJob(kindName("later"), z.object({}), async () => void ran++);
    const { id } = await job.enqueue(ctx.db, {}, { runAt: new Date(Date.now() + 60_000) });
    const r = runner([job.kind]);
    expect(await r.drain()).toBe(0);
    await ctx.db
      .update(jobs)
      .set({ runAt: sql`now()` })
      .where(eq(jobs.id, id));
    expect(await r.drain()).toBe(1);
    expect(ran).toBe(1);
  });

  it("wakes at once when a job is committed (NOTIFY), without waiting for the poll", async () => {
    let ran = 0;
    const job = defineJob(kindName("wake"), z.object({}), async () => void ran++);
    const r = runner([job.kind], { pollMs: 60_000 });
    await r.start();
    // The first round (at start) has found nothing; only the notification can trigger the next.
    await sleep(100);
    await ctx.db.transaction(async (tx) => {
      await job.enqueue(tx, {});
    });
    const ms = await eventually(() => ran === 1, 2_000, "the enqueued job to run");
    expect(ms).toBeLessThan(2_000);
  });

  it("retries a failing job with backoff, then marks it failed after max attempts", async () => {
    let calls = 0;
    const job = defineJob(
      kindName("flaky"),
      z.object({}),
      async () => {
        calls++;
        throw new Error("SMTP said 451 try later");
      },
      { maxAttempts: 3, retryBaseMs: 1000 },
    );
    const { id } = await job.enqueue(ctx.db, {});
    const r = runner([job.kind]);
    await r.drain();
    let row = await rowOf(id);
    expect(row).toMatchObject({ state: "pending", attempts: 1, lastError: "SMTP said 451 try later" });
    const delay = (row?.runAt.getTime() ?? 0) - Date.now();
    expect(delay).toBeGreaterThan(500);
    expect(delay).toBeLessThan(1300);
    expect(await r.drain()).toBe(0);
    for (let attempt = 2; attempt <= 3; attempt++) {
      await ctx.db
        .update(jobs)
        .set({ runAt: sql`now()` })
        .where(eq(jobs.id, id));
      await r.drain();
      row = await rowOf(id);
      if (attempt === 2) {
        // The second delay doubles the first.
        const second = (row?.runAt.getTime() ?? 0) - Date.now();
        expect(second).toBeGreaterThan(1300);
        expect(second).toBeLessThan(2500);
      }
    }
    expect(row).toMatchObject({ state: "failed", attempts: 3 });
    expect(row?.finishedAt).toBeInstanceOf(Date);
    await ctx.db
      .update(jobs)
      .set({ runAt: sql`now()` })
      .where(eq(jobs.id, id));
    expect(await r.drain()).toBe(0);
    expect(calls).toBe(3);
  });

  it("fails at once on a PermanentJobError, and times out a handler that takes too long", async () => {
    const permanent = defineJob(kindName("permanent"), z.object({}), async () => {
      throw new PermanentJobError("the post is gone");
    });
    const slow = defineJob(
      kindName("slow"),
      z.object({}),
      (_payload, jobCtx) =>
        new Promise<void>((_resolve, reject) => jobCtx.signal.addEventListener("abort", () => reject(new Error("aborted")))),
      { timeoutMs: 150 },
    );
    const a = await permanent.enqueue(ctx.db, {});
    const b = await slow.enqueue(ctx.db, {});
    await runner([permanent.kind, slow.kind]).drain();
    expect(await rowOf(a.id)).toMatchObject({ state: "failed", attempts: 1, lastError: "the post is gone" });
    expect(await rowOf(b.id)).toMatchObject({ state: "pending", attempts: 1, lastError: "Timed out after 150 ms" });
  });

  it("never runs a job enqueued in a transaction that rolled back", async () => {
    let ran = 0;
    const job = defineJob(kindName("rollback"), z.object({}), async () => void ran++);
    const r = runner([job.kind], { pollMs: 50 });
    await r.start();
    await expect(
      ctx.db.transaction(async (tx) => {
        await job.enqueue(tx, {});
        throw new Error("the write failed");
      }),
    ).rejects.toThrow("the write failed");
    await sleep(300);
    expect(await r.drain()).toBe(0);
    expect(ran).toBe(0);
    expect(await ctx.db.select().from(jobs).where(eq(jobs.kind, job.kind))).toHaveLength(0);
  });

  it("stores a job with a dedupe key once; cancelJob removes it only before it runs", async () => {
    let ran = 0;
    const job = defineJob(kindName("dedupe"), z.object({ n: z.number() }), async () => void ran++);
    const key = `email:subscriber-1:post-${unique}`;
    const first = await job.enqueue(ctx.db, { n: 1 }, { key });
    const second = await ctx.db.transaction((tx) => job.enqueue(tx, { n: 2 }, { key }));
    expect(second).toEqual({ id: first.id, created: false });
    const r = runner([job.kind]);
    expect(await r.drain()).toBe(1);
    expect(await job.enqueue(ctx.db, { n: 3 }, { key })).toEqual({ id: first.id, created: false });
    expect(await r.drain()).toBe(0);
    expect(ran).toBe(1);
    expect(await cancelJob(ctx.db, key)).toBe(false);
    const later = await job.enqueue(ctx.db, { n: 4 }, { key: `${key}:later`, runAt: new Date(Date.now() + 60_000) });
    expect(await cancelJob(ctx.db, `${key}:later`)).toBe(true);
    expect(await rowOf(later.id)).toBeUndefined();
  });

  it("runs a 'running' job again once its lease ran out, never one whose lease is live", async () => {
    const ran: string[] = [];
    const job = defineJob(kindName("lease"), z.object({ name: z.string() }), async ({ name }) => void ran.push(name));
    const dead = await job.enqueue(ctx.db, { name: "dead" });
    const live = await job.enqueue(ctx.db, { name: "live" });
    await ctx.db
      .update(jobs)
      .set({ state: "running", attempts: 1, lockedBy: "killed", lockedUntil: sql`now() - interval '1 second'` })
      .where(eq(jobs.id, dead.id));
    await ctx.db
      .update(jobs)
      .set({ state: "running", attempts: 1, lockedBy: "alive", lockedUntil: sql`now() + interval '1 minute'` })
      .where(eq(jobs.id, live.id));
    expect(await runner([job.kind]).drain()).toBe(1);
    expect(ran).toEqual(["dead"]);
    expect(await rowOf(dead.id)).toMatchObject({ state: "done", attempts: 2 });
    expect(await rowOf(live.id)).toMatchObject({ state: "running", lockedBy: "alive" });
  });

  it("marks failed a job whose lease ran out on its last attempt (a job that kills its process)", async () => {
    let ran = 0;
    const job = defineJob(kindName("poison"), z.object({}), async () => void ran++, { maxAttempts: 2 });
    const { id } = await job.enqueue(ctx.db, {});
    await ctx.db
      .update(jobs)
      .set({ state: "running", attempts: 2, lockedUntil: sql`now() - interval '1 second'` })
      .where(eq(jobs.id, id));
    await runner([job.kind]).drain();
    expect(ran).toBe(0);
    expect(await rowOf(id)).toMatchObject({ state: "failed", attempts: 3 });
  });

  it("paces a kind to its rate", async () => {
    const starts: number[] = [];
    const job = defineJob(kindName("paced"), z.object({ i: z.number() }), async () => void starts.push(Date.now()), { ratePerSecond: 5 });
    for (let i = 0; i < 8; i++) await job.enqueue(ctx.db, { i });
    const since = Date.now();
    expect(await runner([job.kind]).drain()).toBe(8);
    expect(starts).toHaveLength(8);
    expectPaced(starts, since, 200);
  });

  it("prunes finished jobs older than a date", async () => {
    const job = defineJob(kindName("prune"), z.object({}), async () => undefined);
    const { id } = await job.enqueue(ctx.db, {});
    const pending = await job.enqueue(ctx.db, {}, { runAt: new Date(Date.now() + 60_000) });
    await runner([job.kind]).drain();
    await ctx.db
      .update(jobs)
      .set({ finishedAt: sql`now() - interval '40 days'` })
      .where(eq(jobs.id, id));
    expect(await pruneFinishedJobs(ctx.db, new Date(Date.now() - 30 * 86_400_000))).toBeGreaterThanOrEqual(1);
    expect(await rowOf(id)).toBeUndefined();
    expect(await rowOf(pending.id)).toBeDefined();
  });

  it("recurring task: not while another instance holds a live lease; taken over when it ran out", async () => {
    let runs = 0;
    const task = defineRecurringTask(`test.lease-${++unique}`, 60_000, async () => void runs++);
    await ctx.db
      .insert(taskLeases)
      .values({ name: task.name, nextRunAt: sql`now()`, lockedBy: "other", lockedUntil: sql`now() + interval '1 minute'` });
    expect(await runRecurringTaskIfDue(ctx.db, task, "me")).toMatchObject({ ran: false });
    await ctx.db
      .update(taskLeases)
      .set({ lockedUntil: sql`now() - interval '1 second'` })
      .where(eq(taskLeases.name, task.name));
    expect(await runRecurringTaskIfDue(ctx.db, task, "me")).toEqual({ ran: true, ok: true });
    expect(runs).toBe(1);
    const again = await runRecurringTaskIfDue(ctx.db, task, "me");
    expect(again.ran).toBe(false);
    expect(again.ran === false && again.retryInMs).toBeGreaterThan(50_000);
    const [row] = await ctx.db.select().from(taskLeases).where(eq(taskLeases.name, task.name));
    expect(row).toMatchObject({ lockedBy: null, lockedUntil: null, lastError: null });
  });

  describe("two instances on one database", () => {
    const secondDatabase = useSecondHandle(ctx);
    const pair = (kinds: string[], tasks: string[] = []) => {
      const options = { pollMs: 50, batchSize: 8, tasks, kinds };
      const a = new JobRunner({ ...options, database: () => ctx.database });
      const b = new JobRunner({ ...options, database: secondDatabase });
      runners.push(a, b);
      return [a, b] as const;
    };

    it("process 200 jobs exactly once between them", async () => {
      const seen = new Map<number, number>();
      const job = defineJob(kindName("many"), z.object({ i: z.number() }), async ({ i }) => {
        seen.set(i, (seen.get(i) ?? 0) + 1);
        await sleep(Math.random() * 5);
      });
      await ctx.db.transaction(async (tx) => {
        for (let i = 0; i < 200; i++) await job.enqueue(tx, { i });
      });
      const [a, b] = pair([job.kind]);
      await Promise.all([a.start(), b.start()]);
      await eventually(
        async () => {
          const [row] = await ctx.db
            .select({ n: sql<number>`count(*)::int` })
            .from(jobs)
            .where(sql`${jobs.kind} = ${job.kind} and ${jobs.state} = 'done'`);
          return row?.n === 200;
        },
        30_000,
        "200 jobs done",
      );
      expect(seen.size).toBe(200);
      expect([...seen.values()].every((n) => n === 1)).toBe(true);
    });

    it("run a recurring task on only one of them at a time", async () => {
      let active = 0;
      let most = 0;
      let runs = 0;
      // A short lease makes the other runner retry often; the first run outlasts the lease, so
      // only the renewal (heartbeat) keeps the other runner out.
      const task = defineRecurringTask(
        `test.singleton-${++unique}`,
        0,
        async () => {
          active++;
          most = Math.max(most, active);
          await sleep(runs === 0 ? 900 : 60);
          active--;
          runs++;
        },
        { leaseMs: 400 },
      );
      const [a, b] = pair([], [task.name]);
      await Promise.all([a.start(), b.start()]);
      await eventually(() => runs >= 8, 15_000, "eight runs of the task");
      await Promise.all([a.stop(), b.stop()]);
      expect(most).toBe(1);
      const [row] = await ctx.db.select().from(taskLeases).where(eq(taskLeases.name, task.name));
      expect(row?.lockedBy).toBeNull();
    });

    it("share a paced kind's rate", async () => {
      const starts: number[] = [];
      const job = defineJob(kindName("shared-rate"), z.object({ i: z.number() }), async () => void starts.push(Date.now()), {
        ratePerSecond: 5,
      });
      for (let i = 0; i < 10; i++) await job.enqueue(ctx.db, { i });
      const [a, b] = pair([job.kind]);
      const since = Date.now();
      await Promise.all([a.drain(), b.drain()]);
      const done = await ctx.db
        .select({ id: jobs.id })
        .from(jobs)
        .where(inArray(jobs.kind, [job.kind]));
      expect(done).toHaveLength(10);
      expect(starts).toHaveLength(10);
      expectPaced(starts, since, 200);
    });
  });
});
