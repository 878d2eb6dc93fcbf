import { createHash, timingSafeEqual } from "node:crypto";
import { sql, type SQL } from "drizzle-orm";
import { collectDefaultMetrics, Counter, Gauge, Registry } from "prom-client";
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
  /** http_requests_total and http_request_duration_seconds, per label set (see RequestSeries). */
  series: Map<string, RequestSeries>;
  pageCache: Counter<"result">;
  /** Lookups since the last scrape, added to `pageCache` when it is read. */
  pendingLookups: { hit: number; miss: number };
}

/**
 * One label set's request count and duration histogram, in plain numbers: prom-client's `inc` and
 * `observe` validate and hash the labels on every call (a child from `labels()` too), which was
 * ~10 µs of a page-cache hit's ~65 µs of CPU (docs/decisions/0080-admin-reads-and-hit-path-gap.md).
 * Written out at scrape time in the text prom-client writes for a counter and a histogram.
 */
export interface RequestSeries {
  /** `method="GET",route="/",status="200"`, escaped as prom-client escapes label values. */
  labels: string;
  count: number;
  sum: number;
  /** Observations per bucket of DURATION_BUCKETS (not cumulative); above the last, only `count`. */
  buckets: number[];
}

const REQUESTS_NAME = "http_requests_total";
const REQUESTS_HELP = "HTTP requests answered, by method, route pattern and status.";
const DURATION_NAME = "http_request_duration_seconds";
const DURATION_HELP = "Time to answer an HTTP request, by method, route pattern and status.";
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

// On globalThis so Vite's module reloading in development keeps one registry (metric names are unique per registry).
const holder = globalThis as typeof globalThis & { __appMetrics?: Metrics };

function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const pendingLookups = { hit: 0, miss: 0 };
  const pageCache = new Counter({
    name: "page_cache_lookups_total",
    help: "Page cache lookups by result (hit or miss); hit ratio = hit / (hit + miss).",
    labelNames: ["result"] as const,
    registers: [registry],
    collect() {
      for (const result of ["hit", "miss"] as const) {
        if (pendingLookups[result] > 0) this.inc({ result }, pendingLookups[result]);
        pendingLookups[result] = 0;
      }
    },
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
  return { registry, series: new Map(), pageCache, pendingLookups };
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
  observeRequest(requestSeries(method, route, status), seconds);
}

/**
 * The counters of one label set, for a caller that answers the same one many times and keeps it
 * (the page-cache hit path keeps one per stored page, method and status, so a hit builds no key).
 */
export function requestSeries(method: string, route: string, status: number): RequestSeries {
  const m = metrics();
  const key = `${method} ${status} ${route}`;
  let series = m.series.get(key);
  if (!series) {
    const labels = `method="${labelValue(method)}",route="${labelValue(route)}",status="${status}"`;
    series = { labels, count: 0, sum: 0, buckets: DURATION_BUCKETS.map(() => 0) };
    m.series.set(key, series);
  }
  return series;
}

/** Counts one request of `series` (from requestSeries) that took `seconds`. */
export function observeRequest(series: RequestSeries, seconds: number): void {
  series.count++;
  series.sum += seconds;
  const bucket = DURATION_BUCKETS.findIndex((bound) => seconds <= bound);
  if (bucket !== -1) series.buckets[bucket] = (series.buckets[bucket] ?? 0) + 1;
}

/** The page cache calls this on every lookup. */
export function recordPageCacheLookup(hit: boolean): void {
  metrics().pendingLookups[hit ? "hit" : "miss"]++;
}

/** A label value as prom-client writes it: backslash, newline and double quote escaped. */
function labelValue(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"');
}

/** The two request metrics in Prometheus' text format, as prom-client writes a counter and a histogram. */
function requestMetricsText(series: Iterable<RequestSeries>): string {
  const counter = [`# HELP ${REQUESTS_NAME} ${REQUESTS_HELP}`, `# TYPE ${REQUESTS_NAME} counter`];
  const histogram = [`# HELP ${DURATION_NAME} ${DURATION_HELP}`, `# TYPE ${DURATION_NAME} histogram`];
  for (const { labels, count, sum, buckets } of series) {
    counter.push(`${REQUESTS_NAME}{${labels}} ${count}`);
    let below = 0;
    DURATION_BUCKETS.forEach((bound, i) => {
      below += buckets[i] ?? 0;
      histogram.push(`${DURATION_NAME}_bucket{le="${bound}",${labels}} ${below}`);
    });
    histogram.push(
      `${DURATION_NAME}_bucket{le="+Inf",${labels}} ${count}`,
      `${DURATION_NAME}_sum{${labels}} ${sum}`,
      `${DURATION_NAME}_count{${labels}} ${count}`,
    );
  }
  return `${counter.join("\n")}\n\n${histogram.join("\n")}\n`;
}

export async function renderMetrics(): Promise<{ body: string; contentType: string }> {
  const { registry, series } = metrics();
  return { body: `${await registry.metrics()}\n${requestMetricsText(series.values())}`, contentType: registry.contentType };
}

/** Whether a request's Authorization header carries the metrics token (constant-time comparison). */
export function isMetricsTokenValid(authorization: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(.+)$/i.exec(authorization ?? "");
  if (!match?.[1]) return false;
  // Hashing first gives equal lengths, so timingSafeEqual never leaks the token's length either.
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(match[1].trim()), digest(token));
}
