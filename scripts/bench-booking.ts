// Booking benchmark, each figure beside a reference measured in the same run:
// 1. slots in process (PGlite in memory): listSlots and the slot page's pickerData for a call type with
//    50 days of weekday hours (a 70-day horizon) and 500 busy events from a calendar feed, p50/p95,
//    beside the same call type with no busy events; each computed afresh (the first request after a
//    write: the slot stamp renewed before every run) and from the slot cache (no write in between);
// 2. latency over HTTP, one request at a time (what a visitor waits for; no queueing behind other
//    requests): a production server (npm run build) on a scratch data directory seeded the same way;
//    GET /book p50/p95, bare and with a call type and a day, beside a cached public page (/) and /
//    rendered afresh, alternated with them (the issue's ceiling: 20 ms p95; /book is kept in the page
//    cache beside the slot stamp read per request: docs/decisions/0083-slot-page-cache.md); then /book
//    right after a booking (the slot stamp moved: slots computed and the page rendered again);
// 3. throughput over HTTP, 50 requests at a time: pages/s of /book, beside / cached and rendered, and
//    the server's CPU time per page (from /proc: less disturbed than waits by other load on the machine);
// 4. bookings under 50 concurrent visitors on that server: distinct free times booked through
//    POST /book (verification, rate limits, the slot re-check, the exclusion constraint, outbox rows),
//    bookings accepted per second; then 50 at once for one time (exactly one must be accepted).
// Prints figures; asserts nothing.
// Usage: npm run bench:booking   Env: BENCH_RUNS (100), BENCH_BUSY (500), BENCH_BOOKINGS (200),
// BENCH_CONCURRENCY (50), BENCH_PORT (4170), BENCH_PARTS (slots,http).
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import { activeCallType, listSlots } from "~/features/booking/booking.server";
import { pickerData } from "~/features/booking/slot-picker.server";
import { resetEnvForTests } from "~/server/env.server";
import { migrateDatabase, openDatabase, type Db } from "~/server/db/client.server";
import { sql } from "drizzle-orm";
import { bookingBusyTimes, bookingCalendarFeeds, bookingCallTypes, bookingWeeklyHours } from "~/server/db/schema.server";
import { easyAltchaToken } from "../tests/helpers/altcha";
import { serverNodeArgs } from "./server-node-args.mjs";
import { scriptTempDir } from "./temp-dir.mjs";

const RUNS = Number(process.env.BENCH_RUNS ?? 100);
const BUSY = Number(process.env.BENCH_BUSY ?? 500);
const BOOKINGS = Number(process.env.BENCH_BOOKINGS ?? 200);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 50);
const PORT = Number(process.env.BENCH_PORT ?? 4170);
const PARTS = new Set((process.env.BENCH_PARTS ?? "slots,http").split(","));
const SECRET = "bench-booking-secret-0123456789abcdef0123";
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

// The site's zone for the in-process part and the server alike.
process.env.SITE_TIME_ZONE = "Europe/Berlin";
process.env.AUTH_SECRET = SECRET;
process.env.LOG_LEVEL = "warn";
resetEnvForTests();

const print = (line: string) => console.log(line);
const ms = (value: number) => value.toFixed(1).padStart(8);
function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}
/** p50/p95 of `work`, run one at a time after a warm-up; `before` runs untimed ahead of each run. */
async function timed(runs: number, work: () => Promise<unknown>, before?: () => Promise<unknown>): Promise<{ p50: number; p95: number }> {
  await before?.();
  await work();
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    await before?.();
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50: quantile(times, 0.5), p95: quantile(times, 0.95) };
}

/**
 * The benchmark's call type ("bench-call", 30 minutes every 30, 10 minutes' buffer, 12 h notice, a
 * 70-day horizon: 50 weekdays of 09:00–12:00 and 14:00–17:00) and, with `busy`, that many busy events
 * of 30–120 minutes from one calendar feed, spread over the horizon's days and hours.
 */
async function seed(db: Db, busy: number): Promise<void> {
  await db.insert(bookingCallTypes).values({
    slug: "bench-call",
    name: "Bench call",
    durationMinutes: 30,
    incrementMinutes: 30,
    bufferAfterMinutes: 10,
    minimumNoticeMinutes: 720,
    horizonDays: 70,
    location: "link-later",
  });
  await db.insert(bookingWeeklyHours).values(
    [1, 2, 3, 4, 5].flatMap((weekday) => [
      { weekday, startMinute: 9 * 60, endMinute: 12 * 60 },
      { weekday, startMinute: 14 * 60, endMinute: 17 * 60 },
    ]),
  );
  if (busy === 0) return;
  // Read a moment ago, read again only daily: booking is not paused while the bench runs.
  const [feed] = await db
    .insert(bookingCalendarFeeds)
    .values({
      label: "Work",
      url: "http://127.0.0.1:9/busy.ics",
      refreshMinutes: 1440,
      lastAttemptAt: new Date(),
      lastSuccessAt: new Date(),
    })
    .returning({ id: bookingCalendarFeeds.id });
  const dayStart = Math.floor(Date.now() / DAY) * DAY;
  const rows = Array.from({ length: busy }, (_, i) => {
    // Deterministic spread: day i % 70, any time of day (a calendar holds evenings too), 30–120 minutes.
    const start = dayStart + (i % 70) * DAY + ((i * 97) % (24 * 60)) * 60_000;
    return { feedId: feed?.id ?? "", startsAt: new Date(start), endsAt: new Date(start + (30 + ((i * 13) % 4) * 30) * 60_000) };
  });
  for (let i = 0; i < rows.length; i += 500) await db.insert(bookingBusyTimes).values(rows.slice(i, i + 500));
}

async function benchSlots(): Promise<void> {
  print(`\n1. Slots in process (PGlite in memory), 50 weekdays of hours, ${RUNS} runs each`);
  print(`   ${"call type".padEnd(52)}${"slots".padStart(7)}${"p50 ms".padStart(8)}${"p95 ms".padStart(8)}`);
  for (const busy of [0, BUSY]) {
    const database = await openDatabase({ kind: "pglite-memory" });
    try {
      await migrateDatabase(database);
      await seed(database.db, busy);
      const callType = await activeCallType(database.db, "bench-call");
      const count = (await listSlots(database.db, callType)).slots.length;
      const label = busy === 0 ? "no busy events (reference)" : `${busy} busy events`;
      // A write to the slots' inputs (as a booking, a feed read that changed, the owner's hours): here one that changes no value.
      const write = () => database.db.update(bookingWeeklyHours).set({ startMinute: sql`${bookingWeeklyHours.startMinute}` });
      for (const [how, before] of [
        ["afresh", write],
        ["cached", undefined],
      ] as const) {
        const list = await timed(RUNS, () => listSlots(database.db, callType), before);
        print(`   ${`listSlots ${how}, ${label}`.padEnd(52)}${String(count).padStart(7)}${ms(list.p50)}${ms(list.p95)}`);
        const picker = await timed(RUNS, () => pickerData(database.db, callType, {}), before);
        print(`   ${`slot page data ${how}, ${label}`.padEnd(52)}${"".padStart(7)}${ms(picker.p50)}${ms(picker.p95)}`);
      }
    } finally {
      await database.close();
    }
  }
}

const children: ChildProcess[] = [];
async function waitUp(url: string, limitMs = 120_000): Promise<void> {
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

/**
 * Free times at whole hours (30 minutes and a 10-minute buffer: no two of them overlap), from the
 * seeded data directory, and a day in the middle of the horizon (the site's zone) to ask /book for.
 */
async function seedDataDir(dataDir: string): Promise<{ free: number[]; day: string }> {
  const database = await openDatabase({ kind: "pglite", dataDir });
  try {
    await migrateDatabase(database);
    await seed(database.db, BUSY);
    const callType = await activeCallType(database.db, "bench-call");
    const { slots } = await listSlots(database.db, callType);
    return { free: slots.map((s) => s.start).filter((start) => start % HOUR === 0), day: slots[Math.floor(slots.length / 2)]?.day ?? "" };
  } finally {
    await database.close();
  }
}

async function startServer(dataDir: string): Promise<string> {
  const child = spawn(process.execPath, [...serverNodeArgs(), "server.js"], {
    env: {
      ...process.env,
      PORT: String(PORT),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      SEED_DEMO_CONTENT: "false",
      BOOKING_RATE_LIMIT_PER_HOUR: "1000000",
      SUBSTACK_URL: "http://127.0.0.1:9/",
      TSP_BLOG_URL: "http://127.0.0.1:9/",
      TSP_KB_URL: "http://127.0.0.1:9/",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  children.push(child);
  const base = `http://127.0.0.1:${PORT}`;
  await waitUp(`${base}/healthz`);
  return base;
}

async function get(url: string, headers: Record<string, string> = {}): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, { headers });
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return performance.now() - started;
}

/** Books `start` through the public form; the answer's status (303 booked, 409 taken). */
async function book(base: string, start: number, n: number): Promise<number> {
  const response = await fetch(`${base}/book`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      callType: "bench-call",
      start: new Date(start).toISOString(),
      name: `Bench Visitor ${n}`,
      email: `bench-${n}@example.com`,
      verificationToken: await easyAltchaToken(SECRET),
    }),
  });
  await response.arrayBuffer();
  return response.status;
}

/** Runs `work` for each item with at most `limit` at a time. */
async function pool<T, R>(items: T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index] as T, index);
      }
    }),
  );
  return results;
}

type Page = { label: string; path: string; headers: Record<string, string> };
/** The pages measured, the slot pages first; any cookie makes a request per-visitor (rendered afresh). */
const pagesFor = (day: string): Page[] => [
  { label: `/book (slot page, ${BUSY} busy events)`, path: "/book", headers: {} },
  { label: "/book?type=…&day=… (a day chosen)", path: `/book?type=bench-call&day=${day}`, headers: {} },
  { label: "/ (cached public page, reference)", path: "/", headers: {} },
  { label: "/ rendered, not cached (reference)", path: "/", headers: { cookie: "bench=1" } },
];

/**
 * The server process's CPU time so far (user and system, every thread), in ms; null without /proc.
 * Less disturbed by other load on the machine than a wait: a figure to compare pages by.
 */
function serverCpuMs(): number | null {
  try {
    const fields =
      fs
        .readFileSync(`/proc/${children[0]?.pid ?? 0}/stat`, "utf8")
        .split(") ")[1]
        ?.split(" ") ?? [];
    // utime and stime, fields 14 and 15 of proc_pid_stat(5), in clock ticks (USER_HZ: 100 on Linux).
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? ticks * 10 : null;
  } catch {
    return null;
  }
}

const row = (label: string, ...figures: string[]) => print(`   ${label.padEnd(52)}${figures.join("")}`);

async function benchHttp(): Promise<void> {
  const dataDir = scriptTempDir("bench-booking-");
  try {
    const { free, day } = await seedDataDir(dataDir);
    const PAGES = pagesFor(day);
    const base = await startServer(dataDir);
    // Warm every page (the cached page is stored by its first render, the slot cache by the first /book).
    for (let i = 0; i < 20; i++) for (const page of PAGES) await get(`${base}${page.path}`, page.headers);

    const latency: number[][] = PAGES.map(() => []);
    for (let run = 0; run < RUNS; run++) {
      for (const [i, page] of PAGES.entries()) latency[i]?.push(await get(`${base}${page.path}`, page.headers));
    }
    print(
      `\n2. Latency over HTTP (production server, PGlite): one request at a time, ${RUNS} each, in turn (ceiling: slot page 20 ms p95)`,
    );
    row("page", "p50 ms".padStart(8), "p95 ms".padStart(8));
    for (const [i, page] of PAGES.entries()) {
      const times = (latency[i] ?? []).sort((a, b) => a - b);
      row(page.label, ms(quantile(times, 0.5)), ms(quantile(times, 0.95)));
    }
    // A booking renews the slot stamp: the next visitor's /book computes the slots afresh. The times
    // booked here are the last free ones, kept out of part 4.
    const afterBooking = free.splice(Math.max(1, free.length - 20));
    const fresh: number[] = [];
    for (const [i, start] of afterBooking.entries()) {
      if ((await book(base, start, 200_000 + i)) !== 303) throw new Error("a free time was not booked");
      fresh.push(await get(`${base}/book`));
    }
    fresh.sort((a, b) => a - b);
    row(`/book right after a booking (${fresh.length}; slots afresh)`, ms(quantile(fresh, 0.5)), ms(quantile(fresh, 0.95)));

    const requests = RUNS * 2;
    print(`\n3. Throughput over HTTP: ${requests} requests of each page, ${CONCURRENCY} at a time (waits include queueing)`);
    row("page", "pages/s".padStart(8), "p50 ms".padStart(8), "p95 ms".padStart(8), "server CPU ms/page".padStart(20));
    for (const page of PAGES) {
      const cpuBefore = serverCpuMs();
      const started = performance.now();
      const times = await pool(Array.from({ length: requests }), CONCURRENCY, () => get(`${base}${page.path}`, page.headers));
      const seconds = (performance.now() - started) / 1000;
      const cpuAfter = serverCpuMs();
      const cpu = cpuBefore === null || cpuAfter === null ? "n/a" : ((cpuAfter - cpuBefore) / requests).toFixed(1);
      times.sort((a, b) => a - b);
      row(page.label, (requests / seconds).toFixed(0).padStart(8), ms(quantile(times, 0.5)), ms(quantile(times, 0.95)), cpu.padStart(20));
    }

    // The last free time is kept for the race below.
    const starts = free.slice(0, Math.min(BOOKINGS, free.length - 1));
    const started = performance.now();
    const statuses = await pool(starts, CONCURRENCY, (start, i) => book(base, start, i));
    const seconds = (performance.now() - started) / 1000;
    const accepted = statuses.filter((s) => s === 303).length;
    const others = statuses.filter((s) => s !== 303);
    print(`\n4. Bookings, ${CONCURRENCY} concurrent visitors, ${starts.length} distinct free times`);
    print(
      `   accepted ${accepted} of ${starts.length} in ${seconds.toFixed(1)} s: ${(accepted / seconds).toFixed(1)} bookings/s` +
        (others.length > 0 ? ` (others answered ${[...new Set(others)].join(", ")})` : ""),
    );
    const contested = free[starts.length];
    if (contested !== undefined) {
      const raceStarted = performance.now();
      const race = await Promise.all(Array.from({ length: CONCURRENCY }, (_, i) => book(base, contested, 100_000 + i)));
      const raceMs = performance.now() - raceStarted;
      const counts = new Map<number, number>();
      for (const status of race) counts.set(status, (counts.get(status) ?? 0) + 1);
      print(
        `   ${CONCURRENCY} at once for one time: ${[...counts].map(([status, n]) => `${n} × ${status}`).join(", ")} (303 booked, 409 taken) in ${raceMs.toFixed(0)} ms`,
      );
    }
  } finally {
    for (const child of children) child.kill();
    await new Promise((r) => setTimeout(r, 500));
  }
}

print(
  `${os.cpus().length} CPUs, load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}`,
);
if (PARTS.has("slots")) await benchSlots();
if (PARTS.has("http")) await benchHttp();
process.exit(0);
