import { createHash, timingSafeEqual } from "node:crypto";
import { sql, type SQL } from "drizzle-orm";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { z } from "zod";
import { queryRows } from "~/server/db/query-rows.server";
import { getDb } from "~/server/db/client.server";
import { logger } from "~/server/logger.server";

/**
 * Prometheus metrics (GET /metrics, docs/decisions/0023-operations-endpoints.md). Per-process counters (requests,
 * page cache) live in memory; shared state (jobs, outbox, scheduler lag) is read from the database
 * at scrape time, so every instance reports the same queue and a scrape of any one is enough.
 */
interface Metrics {
  registry: Registry;
  requests: Counter<"method" | "route" | "status">;
  duration: Histogram<"method" | "route" | "status">;
  pageCache: Counter<"result">;
  /** Each label set's children: the page-cache hit path records every request, and hashing the labels each time showed. */
  series: Map<string, { count: () => void; observe: (seconds: number) => void }>;
}

// On globalThis so Vite's module reloading in development keeps one registry (metric names are unique per registry).
const holder = globalThis as typeof globalThis & { __appMetrics?: Metrics };

function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: "http_requests_total",
    help: "HTTP requests answered, by method, route pattern and status.",
    labelNames: ["method", "route", "status"] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: "http_request_duration_seconds",
    help: "Time to answer an HTTP request, by method, route pattern and status.",
    labelNames: ["method", "route", "status"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const pageCache = new Counter({
    name: "page_cache_lookups_total",
    help: "Page cache lookups by result (hit or miss); hit ratio = hit / (hit + miss).",
    labelNames: ["result"] as const,
    registers: [registry],
  });
  pageCache.inc({ result: "hit" }, 0);
  pageCache.inc({ result: "miss" }, 0);
  new Gauge({
    name: "page_cache_hit_ratio",
    help: "Page cache hits divided by lookups since this process started (0 before the first lookup).",
    registers: [registry],
    async collect() {
      const values = (await pageCache.get()).values;
      const count = (result: string) => values.find((v) => v.labels.result === result)?.value ?? 0;
      const total = count("hit") + count("miss");
      this.set(total === 0 ? 0 : count("hit") / total);
    },
  });
  new Gauge({
    name: "app_jobs",
    help: "Background jobs in the database by state (pending = depth; failed = gave up after their last attempt).",
    labelNames: ["state"] as const,
    registers: [registry],
    async collect() {
      const rows = await readRows(stateCounts, sql`select state, count(*)::int as count from jobs group by state`);
      for (const state of ["pending", "running", "done", "failed"]) this.set({ state }, rows.find((r) => r.state === state)?.count ?? 0);
    },
  });
  new Gauge({
    name: "app_mail_outbox_messages",
    help: "Emails in the outbox by state (pending/sending = depth; failed = undeliverable; skipped = mail not set up).",
    labelNames: ["state"] as const,
    registers: [registry],
    async collect() {
      const rows = await readRows(stateCounts, sql`select state, count(*)::int as count from mail_outbox group by state`);
      for (const state of ["pending", "sending", "sent", "failed", "skipped"])
        this.set({ state }, rows.find((r) => r.state === state)?.count ?? 0);
    },
  });
  new Gauge({
    name: "app_scheduler_lag_seconds",
    help: "How late the work that is due runs: the oldest due pending job, and the most overdue recurring task not running now.",
    labelNames: ["queue"] as const,
    registers: [registry],
    async collect() {
      const [row] = await readRows(
        z.object({ jobs: z.coerce.number(), tasks: z.coerce.number() }),
        sql`select
        coalesce((select extract(epoch from now() - min(run_at)) from jobs where state = 'pending' and run_at <= now()), 0)::float8 as jobs,
        coalesce((select extract(epoch from now() - min(next_run_at)) from task_leases
          where next_run_at <= now() and (locked_until is null or locked_until < now())), 0)::float8 as tasks`,
      );
      this.set({ queue: "jobs" }, Math.max(0, Number(row?.jobs ?? 0)));
      this.set({ queue: "recurring_tasks" }, Math.max(0, Number(row?.tasks ?? 0)));
    },
  });
  return { registry, requests, duration, pageCache, series: new Map() };
}

const stateCounts = z.object({ state: z.string(), count: z.coerce.number() });

/** Shared queue state for a scrape; a database that is down gives no rows (and /readyz says why). */
async function readRows<T extends z.ZodType>(row: T, query: SQL): Promise<z.infer<T>[]> {
  try {
    return await queryRows(getDb(), query, row);
  } catch (error) {
    logger.warn({ err: error }, "metrics: could not read queue state");
    return [];
  }
}

function metrics(): Metrics {
  holder.__appMetrics ??= createMetrics();
  return holder.__appMetrics;
}

/** Records one answered request; `route` is the pattern ("/7fs/:category/:slug"), never the raw URL. */
export function recordRequest(method: string, route: string, status: number, seconds: number): void {
  const m = metrics();
  const key = `${method} ${status} ${route}`;
  let series = m.series.get(key);
  if (!series) {
    const labels = { method, route, status: String(status) };
    const counter = m.requests.labels(labels);
    const histogram = m.duration.labels(labels);
    series = { count: () => counter.inc(), observe: (value) => histogram.observe(value) };
    m.series.set(key, series);
  }
  series.count();
  series.observe(seconds);
}

/** The page cache calls this on every lookup. */
export function recordPageCacheLookup(hit: boolean): void {
  metrics().pageCache.inc({ result: hit ? "hit" : "miss" });
}

export async function renderMetrics(): Promise<{ body: string; contentType: string }> {
  const { registry } = metrics();
  return { body: await registry.metrics(), contentType: registry.contentType };
}

/** Whether a request's Authorization header carries the metrics token (constant-time comparison). */
export function isMetricsTokenValid(authorization: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(.+)$/i.exec(authorization ?? "");
  if (!match?.[1]) return false;
  // Hashing first gives equal lengths, so timingSafeEqual never leaks the token's length either.
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(match[1].trim()), digest(token));
}
