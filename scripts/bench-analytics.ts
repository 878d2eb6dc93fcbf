// Statistics benchmark, three parts, each printed beside a reference measured in the same run:
// 1. ingestion: views noted by the collector and stored by the flush (classify, hash, visits, insert)
//    into a scratch PGlite, in views/s, beside the floor of 5,000 views/s;
// 2. cached public pages: autocannon against two production servers started here on scratch data
//    directories, one with ANALYTICS=true and one with ANALYTICS=false, run alternately, and the ratio
//    (the floor is 0.9);
// 3. reports: statisticsReport for each period on PGlite seeded with raw views and three years of
//    daily rollups, p50/p95 (the ceiling is 300 ms on PGlite). A thirtieth of the raw views is
//    today's, over the hours of today gone by (a whole day's share, the most a report meets); the
//    rest is spread over the 29 days before. Yesterday is rolled up (timed) and its rollup copied to
//    the 28 days before it (rolling up each would take as long, once a day in the hourly task); the
//    whole months are summed (timed) as the hourly task does.
//    Today is folded as the every-minute task does (docs/decisions/0084-analytics-today-folds.md):
//    the catch-up fold of the whole day to two minutes before the last seeded view is timed apart
//    (the reports then meet 2–3 minutes of views after the fold), and the next minute's fold.
//    BENCH_FOLD=0: today is not folded (reports group today's raw views, as before the folds);
//    BENCH_FOLD=both: first not folded (BENCH_UNFOLDED_RUNS, default 5, runs each), then folded.
//    Last, yesterday is folded whole and rolled up again, from its folds (timed), as the hourly task
//    meets it after midnight (BENCH_FOLDED_ROLLUP=0 leaves this out: the whole-day fold takes minutes).
// Prints figures; asserts nothing. Parts 2 needs a production build (npm run build).
// Usage: npm run bench:analytics   Env: BENCH_FLUSH_VIEWS (20000), BENCH_RAW_VIEWS (1000000; the issue
// asks for 10 million, scaled down so the seed fits this machine: the output says so), BENCH_RUNS (20),
// BENCH_SECONDS (10), BENCH_CONNECTIONS (50), BENCH_PORT (4150), BENCH_PARTS (flush,http,reports),
// BENCH_DATABASE_URL (an empty PostgreSQL database for the reports part instead of PGlite; the
// ceiling there is 100 ms p95), BENCH_FOLD (1; 0: not folded; both).
import { spawn, type ChildProcess } from "node:child_process";
import type { IncomingMessage } from "node:http";
import os from "node:os";
// @ts-expect-error autocannon ships no type declarations (bench-http.mjs uses it untyped too)
import autocannon from "autocannon";
import { sql, type SQL } from "drizzle-orm";
import { configureCollector, notePageView } from "~/features/analytics/collector.server";
import { dayStartSql } from "~/features/analytics/aggregate.server";
import { foldDay, foldRecentViews } from "~/features/analytics/fold.server";
import { flushViews } from "~/features/analytics/ingest.server";
import { previousDay, rollUpDay, sumRolledMonths } from "~/features/analytics/rollup.server";
import { dayIn } from "~/features/analytics/visitor.server";
import { PERIODS, statisticsReport, type Period } from "~/features/analytics/reports.server";

type ReportOptions = Parameters<typeof statisticsReport>[2];
import { migrateDatabase, openDatabase } from "~/server/db/client.server";
import { getEnv } from "~/server/env.server";
import { serverNodeArgs } from "./server-node-args.mjs";
import { scriptTempDir } from "./temp-dir.mjs";

const FLUSH_VIEWS = Number(process.env.BENCH_FLUSH_VIEWS ?? 20_000);
const RAW_VIEWS = Number(process.env.BENCH_RAW_VIEWS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const PORT = Number(process.env.BENCH_PORT ?? 4150);
const DATABASE_URL = process.env.BENCH_DATABASE_URL;
const FOLD = process.env.BENCH_FOLD ?? "1";
const UNFOLDED_RUNS = Number(process.env.BENCH_UNFOLDED_RUNS ?? 5);
const BENCH_FOLDED_ROLLUP = process.env.BENCH_FOLDED_ROLLUP !== "0";
const PARTS = new Set((process.env.BENCH_PARTS ?? "flush,http,reports").split(","));
const BROWSER_UA = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const REFERRERS = ["https://www.google.com/", "https://www.linkedin.com/feed/", "https://news.ycombinator.com/", undefined];

const lines: string[] = [];
const print = (line: string) => {
  lines.push(line);
  console.log(line);
};
const ms = (value: number) => value.toFixed(1).padStart(8);
function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

/** A request as the collector reads it: method, target, headers and the socket's address. */
function fakeRequest(i: number): IncomingMessage {
  const referrer = REFERRERS[i % REFERRERS.length];
  return {
    method: "GET",
    url: i % 7 === 0 ? `/blog/post-${i % 50}?utm_source=newsletter&utm_campaign=spring` : `/blog/post-${i % 50}`,
    headers: { host: "example.com", "user-agent": BROWSER_UA, ...(referrer ? { referer: referrer } : {}) },
    socket: { remoteAddress: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` },
  } as unknown as IncomingMessage;
}

async function benchFlush(): Promise<void> {
  const database = await openDatabase({ kind: "pglite-memory" });
  try {
    await migrateDatabase(database);
    configureCollector({ enabled: true, capPerMinute: 100_000_000 });
    // Warm-up: the country table and the statements.
    for (let i = 0; i < 500; i++) notePageView(fakeRequest(i));
    await flushViews(database.db);
    const noteStarted = performance.now();
    for (let i = 0; i < FLUSH_VIEWS; i++) notePageView(fakeRequest(i + 1000));
    const noteMs = performance.now() - noteStarted;
    const started = performance.now();
    const stored = await flushViews(database.db);
    const flushMs = performance.now() - started;
    print(`\n1. Ingestion (PGlite in memory, ${FLUSH_VIEWS} views in one flush; floor 5,000 views/s)`);
    print(
      `   noting on the request path: ${((FLUSH_VIEWS / noteMs) * 1000).toFixed(0)} views/s (${((noteMs * 1000) / FLUSH_VIEWS).toFixed(2)} µs a view)`,
    );
    print(
      `   flush (classify, hash, visits, insert): ${stored} stored, ${((stored / flushMs) * 1000).toFixed(0)} views/s (${flushMs.toFixed(0)} ms)`,
    );
  } finally {
    configureCollector({ enabled: false, capPerMinute: 60_000 });
    await database.close();
  }
}

const children: ChildProcess[] = [];
async function waitFor(url: string, limitMs = 120_000): Promise<void> {
  const started = Date.now();
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    if (Date.now() - started > limitMs) throw new Error(`${url} did not answer within ${limitMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function startServer(port: number, analytics: boolean, dataDir: string): Promise<string> {
  const child = spawn(process.execPath, [...serverNodeArgs(), "server.js"], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      // The Host the load sends: the site answers only at its own address (and localhost).
      PUBLIC_URL: "http://example.com",
      LOG_LEVEL: "warn",
      ANALYTICS: String(analytics),
      ANALYTICS_MAX_VIEWS_PER_MINUTE: "10000000",
      SUBSTACK_URL: "http://127.0.0.1:9/",
      TSP_BLOG_URL: "http://127.0.0.1:9/",
      TSP_KB_URL: "http://127.0.0.1:9/",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  children.push(child);
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`${base}/healthz`);
  // Start-up renders stored posts beside the first requests: wait until the page answers quickly.
  let quick = 0;
  const started = Date.now();
  while (quick < 5 && Date.now() - started < 60_000) {
    const before = performance.now();
    await (await fetch(`${base}/`, { headers: { "user-agent": BROWSER_UA } })).arrayBuffer();
    quick = performance.now() - before < 50 ? quick + 1 : 0;
    if (quick === 0) await new Promise((r) => setTimeout(r, 200));
  }
  return base;
}

async function load(url: string): Promise<{ rps: number; errors: number }> {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: SECONDS,
    headers: { "user-agent": BROWSER_UA, referer: "https://www.linkedin.com/" },
  });
  return { rps: result.requests.average, errors: result.errors + result.non2xx };
}

async function benchHttp(): Promise<void> {
  const dirs = [scriptTempDir("bench-analytics-on-"), scriptTempDir("bench-analytics-off-")];
  try {
    const on = await startServer(PORT, true, dirs[0]!);
    const off = await startServer(PORT + 1, false, dirs[1]!);
    print(`\n2. Cached public pages, ${CONNECTIONS} connections, ${SECONDS} s each, off and on alternated (floor: on ≥ 0.9 × off)`);
    print(`   ${"page".padEnd(16)}${"off req/s".padStart(11)}${"on req/s".padStart(11)}${"ratio".padStart(8)}${"errors".padStart(8)}`);
    for (const page of ["/", "/about"]) {
      const a = await load(`${off}${page}`);
      const b = await load(`${on}${page}`);
      const c = await load(`${off}${page}`);
      const d = await load(`${on}${page}`);
      const offRps = (a.rps + c.rps) / 2;
      const onRps = (b.rps + d.rps) / 2;
      print(
        `   ${page.padEnd(16)}${offRps.toFixed(0).padStart(11)}${onRps.toFixed(0).padStart(11)}${(onRps / offRps).toFixed(2).padStart(8)}${String(a.errors + b.errors + c.errors + d.errors).padStart(8)}`,
      );
    }
  } finally {
    for (const child of children) child.kill();
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function benchReports(): Promise<void> {
  const database = await openDatabase(DATABASE_URL ? { kind: "postgres", url: DATABASE_URL, poolSize: 5 } : { kind: "pglite-memory" });
  const db = database.db;
  try {
    await migrateDatabase(database);
    const seedStarted = performance.now();
    const timeZone = getEnv().SITE_TIME_ZONE;
    const today = dayIn(new Date(), timeZone);
    const yesterday = previousDay(today);
    const todayViews = Math.round(RAW_VIEWS / 30);
    // Raw views, ~3 views a visit over consecutive minutes, ~2 visits a visitor: a thirtieth today,
    // over the minutes gone by, the rest over the 29 days before (in chunks, so the seed's memory stays small).
    const seedRaw = (first: number, last: number, until: SQL, minutes: SQL) =>
      db.execute(sql`
      insert into analytics_views (minute, path, referrer_host, utm_source, utm_medium, utm_campaign, country, device, browser, os, visitor_id, visit_id)
      select date_trunc('minute', ${until} - interval '1 minute' - (i % ${minutes}) * interval '1 minute'),
             '/blog/post-' || (i % 500),
             (array['www.google.com', 'www.linkedin.com', 'news.ycombinator.com', null])[1 + i % 4],
             case when i % 9 = 0 then 'newsletter' end, case when i % 9 = 0 then 'email' end,
             case when i % 9 = 0 then 'spring-' || (i % 5) end,
             (array['DE', 'US', 'FR', 'GB', 'NL'])[1 + i % 5],
             (array['desktop', 'mobile', 'tablet'])[1 + i % 3],
             (array['Chrome', 'Firefox', 'Safari', 'Edge'])[1 + i % 4],
             (array['Windows', 'macOS', 'Linux', 'Android', 'iOS'])[1 + i % 5],
             (i / 6)::bigint, (i / 3)::bigint
      from generate_series(${first}::bigint, ${last}::bigint) as i`);
    const CHUNK = 1_000_000;
    const todayStart = dayStartSql(today, timeZone);
    for (let first = 1; first <= RAW_VIEWS - todayViews; first += CHUNK) {
      await seedRaw(first, Math.min(RAW_VIEWS - todayViews, first + CHUNK - 1), todayStart, sql`${29 * 1440}`);
    }
    // Today's: visitor ids after the others'. The folds below are as of this instant, so that the
    // reports meet the last two to three minutes of views after the fold, as on a live site.
    const seededAt = new Date();
    await seedRaw(RAW_VIEWS - todayViews + 1, RAW_VIEWS, sql`now()`, sql`greatest(1, extract(epoch from now() - ${todayStart})::int / 60)`);
    const rawSeconds = (performance.now() - seedStarted) / 1000;
    const rollupStarted = performance.now();
    await rollUpDay(db, yesterday, timeZone);
    const rollupSeconds = (performance.now() - rollupStarted) / 1000;
    // The 28 days before yesterday: yesterday's rollup, copied.
    await db.execute(sql`
      insert into analytics_daily (day, dimension, value, views, visitors, visits, bounces, median_visit_seconds)
      select to_char(${yesterday}::date - d, 'YYYY-MM-DD'), dimension, value, views, visitors, visits, bounces, median_visit_seconds
      from analytics_daily, generate_series(1, 28) as d where day = ${yesterday}`);
    await db.execute(sql`
      insert into analytics_daily_filtered (day, filter_dimension, filter_value, dimension, value, views, visitors, visits, bounces, median_visit_seconds)
      select to_char(${yesterday}::date - d, 'YYYY-MM-DD'), filter_dimension, filter_value, dimension, value, views, visitors, visits, bounces, median_visit_seconds
      from analytics_daily_filtered, generate_series(1, 28) as d where day = ${yesterday}`);
    await db.execute(sql`
      insert into analytics_rolled_days (day, filtered) select to_char(${yesterday}::date - d, 'YYYY-MM-DD'), true from generate_series(1, 28) as d`);
    // Three years of daily rollups before them: per day a total row and ten values in each other dimension.
    await db.execute(sql`
      insert into analytics_daily (day, dimension, value, views, visitors, visits, bounces, median_visit_seconds)
      select to_char(current_date - d, 'YYYY-MM-DD'), dim, case when dim = 'total' then '' else dim || '-' || v end,
             1000 + v, 400 + v, 500 + v, 200, 90
      from generate_series(30, 30 + 3 * 365) as d,
           unnest(array['total', 'page', 'entry', 'referrer', 'campaign', 'country', 'device', 'browser', 'os']) as dim,
           generate_series(1, 10) as v
      where dim <> 'total' or v = 1`);
    await db.execute(sql`
      insert into analytics_rolled_days (day) select to_char(current_date - d, 'YYYY-MM-DD') from generate_series(30, 30 + 3 * 365) as d`);
    // The whole months among them summed, as the hourly maintenance does (docs/decisions/0090-analytics-monthly-sums.md).
    const monthsStarted = performance.now();
    const months = await sumRolledMonths(db);
    const monthsSeconds = (performance.now() - monthsStarted) / 1000;
    await db.execute(sql`analyze`);
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    const scaled = RAW_VIEWS < 10_000_000 ? ` — SCALED DOWN from the issue's 10,000,000 raw views (BENCH_RAW_VIEWS)` : "";
    print(
      `\n3. Reports on ${DATABASE_URL ? "PostgreSQL" : "PGlite (in memory)"}: ${RAW_VIEWS.toLocaleString("en")} raw views over 30 days${scaled}, ${todayViews.toLocaleString("en")} of them today, 3 years of daily rollups; seeded in ${seedSeconds.toFixed(0)} s (raw views ${rawSeconds.toFixed(0)} s, rolling up yesterday ${rollupSeconds.toFixed(1)} s, summing ${months.length} whole months ${monthsSeconds.toFixed(1)} s); ${RUNS} runs each (ceiling ${DATABASE_URL ? 100 : 300} ms p95)`,
    );
    const admin = { id: "bench-admin", role: "admin" as const };
    // A custom period: the 90 days ending a week ago (rollups only, and the 90 before it to compare).
    const day = (ago: number) => new Date(Date.now() - ago * 86_400_000).toISOString().slice(0, 10);
    const reports: [string, ReportOptions][] = [
      ...(Object.keys(PERIODS) as Period[]).map((period): [string, ReportOptions] => [period, { period, filter: null }]),
      ["30d, one referrer", { period: "30d", filter: { dimension: "referrer", value: "www.linkedin.com" } }],
      ["today, one referrer", { period: "today", filter: { dimension: "referrer", value: "www.linkedin.com" } }],
      ["30d, one page", { period: "30d", filter: { dimension: "page", value: "/blog/post-7" } }],
      ["30d, one entry page", { period: "30d", filter: { dimension: "entry", value: "/blog/post-7" } }],
      ["30d, one country", { period: "30d", filter: { dimension: "country", value: "DE" } }],
      ["12m, one campaign", { period: "12m", filter: { dimension: "campaign", value: "spring-1" } }],
      ["custom, 90 days", { period: "custom", custom: { from: day(96), to: day(7) }, filter: null }],
    ];
    const timeReports = async (runs: number, beforeEach?: () => Promise<void>) => {
      print(`   ${"report".padEnd(24)}${"p50 ms".padStart(8)}${"p95 ms".padStart(8)}`);
      for (const [label, options] of reports) {
        await beforeEach?.();
        await statisticsReport(db, admin, options);
        const times: number[] = [];
        for (let run = 0; run < runs; run++) {
          const started = performance.now();
          await statisticsReport(db, admin, options);
          times.push(performance.now() - started);
        }
        times.sort((x, y) => x - y);
        print(`   ${label.padEnd(24)}${ms(quantile(times, 0.5))}${ms(quantile(times, 0.95))}`);
      }
    };
    if (FOLD !== "1") {
      const runs = FOLD === "0" ? RUNS : Math.min(RUNS, UNFOLDED_RUNS);
      print(`   today not folded: every report groups today's raw views (as before the folds), ${runs} runs each`);
      await timeReports(runs);
    }
    if (FOLD === "0") return;
    const folds: number[] = [];
    const fold = async () => {
      const started = performance.now();
      await foldRecentViews(db, seededAt);
      folds.push(performance.now() - started);
    };
    await fold();
    print(
      `   today folded from midnight (catching up, once) in ${((folds.pop() ?? 0) / 1000).toFixed(1)} s, to two minutes before the last seeded view, as the minute's task leaves it (2–3 minutes of views after the fold); ${RUNS} runs each`,
    );
    await timeReports(RUNS);
    // The next minute's fold: one more minute of views (and their visitors' earlier views).
    const minuteStarted = performance.now();
    await foldRecentViews(db, new Date(seededAt.getTime() + 60_000));
    print(`   a minute's fold (the task's every minute): ${(performance.now() - minuteStarted).toFixed(0)} ms`);
    // Yesterday's rollup as the hourly task meets it after midnight: folded whole by the minute's
    // task, so rolled up from its folds (its grouping from raw views was timed above).
    if (!BENCH_FOLDED_ROLLUP) return;
    await db.execute(sql`delete from analytics_rolled_days where day = ${yesterday}`);
    const yesterdayFoldStarted = performance.now();
    await foldDay(db, yesterday, new Date(), { timeZone });
    const yesterdayFoldSeconds = (performance.now() - yesterdayFoldStarted) / 1000;
    const foldedRollupStarted = performance.now();
    const source = await rollUpDay(db, yesterday, timeZone);
    print(
      `   yesterday rolled up from its folds (${source}): ${(performance.now() - foldedRollupStarted).toFixed(0)} ms, against ${rollupSeconds.toFixed(1)} s from its raw views (its folds, from midnight at once: ${yesterdayFoldSeconds.toFixed(0)} s)`,
    );
  } finally {
    await database.close();
  }
}

print(
  `${os.cpus().length} CPUs, load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}`,
);
if (PARTS.has("flush")) await benchFlush();
if (PARTS.has("reports")) await benchReports();
if (PARTS.has("http")) await benchHttp();
process.exit(0);
