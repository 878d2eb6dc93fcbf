import { and, count, eq, gte, inArray, lt, sql } from "drizzle-orm";
import type { Db } from "~/server/db/client.server";
import {
  analyticsDaily,
  analyticsDailyFiltered,
  analyticsMonthly,
  analyticsPartial,
  analyticsPartialDays,
  analyticsRolledDays,
  analyticsViews,
} from "~/server/db/schema.server";
import { getEnv } from "~/server/env.server";
import { defineRecurringTask } from "~/server/jobs/recurring.server";
import { logger } from "~/server/logger.server";
import { aggregateSql, DIMENSIONS, keyedViews, viewsIn } from "./aggregate.server";
import { dayIn, deleteOldSalts } from "./visitor.server";

/** The day before `day` (YYYY-MM-DD). */
export function previousDay(day: string, days = 1): string {
  const date = new Date(`${day}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() - days);
  return date.toISOString().slice(0, 10);
}

/**
 * Each day's bounds once asked (they never change for a day and zone): the dashboard's week at a
 * glance asked the database four times per page for today's. Bounded; emptied when full.
 */
const knownBounds = new Map<string, { start: number; end: number }>();
const MAX_KNOWN_BOUNDS = 1_000;

/** The instants a day starts and ends in the time zone (a DST day is 23 or 25 hours long). */
export async function dayBounds(db: Db, day: string, timeZone: string): Promise<{ start: Date; end: Date }> {
  const key = `${timeZone} ${day}`;
  let bounds = knownBounds.get(key);
  if (!bounds) {
    const read = await readDayBounds(db, day, timeZone);
    bounds = { start: read.start.getTime(), end: read.end.getTime() };
    if (knownBounds.size >= MAX_KNOWN_BOUNDS) knownBounds.clear();
    knownBounds.set(key, bounds);
  }
  // New Date objects each time: a caller may change the ones it was given.
  return { start: new Date(bounds.start), end: new Date(bounds.end) };
}

async function readDayBounds(db: Db, day: string, timeZone: string): Promise<{ start: Date; end: Date }> {
  const next = previousDay(day, -1);
  const [row] = await db
    .select({
      start: sql<string>`(${day}::date::timestamp at time zone ${timeZone})::text`,
      end: sql<string>`(${next}::date::timestamp at time zone ${timeZone})::text`,
    })
    .from(sql`(select 1) as one`);
  if (!row) throw new Error("statistics: day bounds");
  return { start: new Date(row.start), end: new Date(row.end) };
}

/**
 * Rebuilds one day's rollups from its raw views (site time zone), replacing what was there, in one
 * transaction: the unfiltered rows (analytics_daily) and every filtered report's rows
 * (analytics_daily_filtered). Running it twice, or on two instances, leaves the same rows. A day
 * folded whole (fold.server.ts) whose folds hold every one of its views is rolled up from its folds,
 * which give the same rows in a fraction of the time; otherwise from its raw views. Returns which.
 */
export async function rollUpDay(db: Db, day: string, timeZone = getEnv().SITE_TIME_ZONE): Promise<"folds" | "views"> {
  const { start, end } = await dayBounds(db, day, timeZone);
  return db.transaction(async (tx) => {
    // One rollup of a day at a time across instances: the second waits, then rebuilds the same rows.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`analytics.rollup.${day}`}))`);
    await tx.delete(analyticsDaily).where(eq(analyticsDaily.day, day));
    await tx.delete(analyticsDailyFiltered).where(eq(analyticsDailyFiltered.day, day));
    const source = (await foldedWhole(tx, day, start, end)) ? "folds" : "views";
    if (source === "folds") await rollUpFromFolds(tx, day);
    else await rollUpFromViews(tx, day, start, end);
    // A day without views still gets its zero 'total' row, so it is known to be rolled up.
    await tx.insert(analyticsDaily).values({ day, dimension: "total", value: "", views: 0, visitors: 0, visits: 0 }).onConflictDoNothing();
    // The day so far's folds are replaced by the rollup.
    await tx.delete(analyticsPartial).where(eq(analyticsPartial.day, day));
    await tx.delete(analyticsPartialDays).where(eq(analyticsPartialDays.day, day));
    await tx
      .insert(analyticsRolledDays)
      .values({ day, filtered: true })
      .onConflictDoUpdate({ target: analyticsRolledDays.day, set: { rolledAt: new Date(), filtered: true } });
    await sumMonth(tx, monthOf(day));
    return source;
  });
}

/** A day's rollup rows grouped from its raw views: nine groupings of the day's views. */
async function rollUpFromViews(tx: Db, day: string, start: Date, end: Date): Promise<void> {
  const views = viewsIn(start, end);
  await tx.execute(sql`insert into analytics_daily (day, dimension, value, views, visitors, visits, bounces, median_visit_seconds)
    select ${day}, dimension, value, views, visitors, visits, bounces, median_visit_seconds from (${aggregateSql(keyedViews(views, null))}) as a
    where dimension = 'total' or views > 0`);
  for (const dimension of DIMENSIONS) {
    await tx.execute(sql`insert into analytics_daily_filtered
        (day, filter_dimension, filter_value, dimension, value, views, visitors, visits, bounces, median_visit_seconds)
      select ${day}, ${dimension}, filter_value, dimension, value, views, visitors, visits, bounces, median_visit_seconds
      from (${aggregateSql(keyedViews(views, { dimension }))}) as a where dimension = 'total' or views > 0`);
  }
}

/**
 * Whether the day's folds hold every one of its views: folded to the day's end, with as many views
 * as the raw views have. Views only ever add up, so a view stored after its minute was folded (an
 * instance that stalled) makes the raw count larger and the day is grouped from its raw views.
 */
async function foldedWhole(tx: Db, day: string, start: Date, end: Date): Promise<boolean> {
  const [state] = await tx
    .select({ foldedUntil: analyticsPartialDays.foldedUntil })
    .from(analyticsPartialDays)
    .where(eq(analyticsPartialDays.day, day));
  if (!state || state.foldedUntil < end) return false;
  const p = analyticsPartial;
  const [counts] = await tx
    .select({
      folded: sql<string>`(select coalesce(sum(${p.views}), 0) from ${p} where ${and(
        eq(p.day, day),
        eq(p.filterDimension, ""),
        eq(p.filterValue, ""),
        eq(p.dimension, "total"),
      )})::text`,
      raw: sql<string>`(select coalesce(sum(${analyticsViews.views}), 0) from ${analyticsViews} where ${and(
        gte(analyticsViews.minute, start),
        lt(analyticsViews.minute, end),
      )})::text`,
    })
    .from(sql`(select 1) as one`);
  return counts !== undefined && counts.folded === counts.raw;
}

/**
 * A day's rollup rows copied from its folds (the unfiltered ones to analytics_daily, the filtered
 * ones to analytics_daily_filtered), without the rows that fell to zero (as a grouping of views has
 * none; the day's zero 'total' row is the caller's), each 'total' row with the
 * median of its visit lengths: percentile_disc(0.5) of the 'length' rows, the first length at or
 * past half of the visits (as the folded report works it out, fold.server.ts).
 */
async function rollUpFromFolds(tx: Db, day: string): Promise<void> {
  const rows = sql`with lengths as (
      select filter_dimension, filter_value, value::int as seconds,
        sum(visits) over (partition by filter_dimension, filter_value order by value::int) as seen,
        sum(visits) over (partition by filter_dimension, filter_value) as visits
      from analytics_partial where day = ${day} and dimension = 'length' and visits > 0),
    medians as (select filter_dimension, filter_value, min(seconds) as seconds from lengths where seen * 2 >= visits group by 1, 2)
    select p.filter_dimension, p.filter_value, p.dimension, p.value, p.views, p.visitors, p.visits, p.bounces,
      case when p.dimension = 'total' then coalesce(m.seconds, 0) else 0 end as median_visit_seconds
    from analytics_partial p left join medians m using (filter_dimension, filter_value)
    where p.day = ${day} and p.dimension <> 'length' and p.views > 0`;
  await tx.execute(sql`with r as (${rows}), unfiltered as (
      insert into analytics_daily (day, dimension, value, views, visitors, visits, bounces, median_visit_seconds)
      select ${day}, dimension, value, views, visitors, visits, bounces, median_visit_seconds from r where filter_dimension = '')
    insert into analytics_daily_filtered
      (day, filter_dimension, filter_value, dimension, value, views, visitors, visits, bounces, median_visit_seconds)
    select ${day}, filter_dimension, filter_value, dimension, value, views, visitors, visits, bounces, median_visit_seconds
    from r where filter_dimension <> ''`);
}

/** The month (YYYY-MM) of a day (YYYY-MM-DD). */
export function monthOf(day: string): string {
  return day.slice(0, 7);
}

/** The days of a month (YYYY-MM), in order. */
export function daysOfMonth(month: string): string[] {
  const [year, index] = month.split("-").map(Number) as [number, number];
  const length = new Date(Date.UTC(year, index, 0)).getUTCDate();
  return Array.from({ length }, (_, i) => `${month}-${String(i + 1).padStart(2, "0")}`);
}

/**
 * Writes a month's sums of its daily rollups (analytics_monthly), replacing what was there, when
 * every day of the month is rolled up; otherwise only deletes them, so a month's sums never differ
 * from its days'. Inside the caller's transaction, under the month's lock: two instances rolling up
 * two days of one month sum it one after the other, the second with both days.
 */
async function sumMonth(tx: Db, month: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`analytics.month.${month}`}))`);
  await tx.delete(analyticsMonthly).where(eq(analyticsMonthly.month, month));
  const days = daysOfMonth(month);
  const inMonth = and(gte(analyticsDaily.day, days[0] ?? month), lt(analyticsDaily.day, `${month}-99`));
  const [rolled] = await tx
    .select({ days: count() })
    .from(analyticsDaily)
    .where(and(eq(analyticsDaily.dimension, "total"), inMonth));
  if ((rolled?.days ?? 0) < days.length) return;
  const d = analyticsDaily;
  await tx.execute(sql`insert into ${analyticsMonthly} (month, dimension, value, views, visitors, visits, bounces, visit_seconds)
    select ${month}, ${d.dimension}, ${d.value}, sum(${d.views}), sum(${d.visitors}), sum(${d.visits}), sum(${d.bounces}),
      sum(${d.medianVisitSeconds}::bigint * ${d.visits}) from ${d} where ${inMonth} group by ${d.dimension}, ${d.value}`);
}

/**
 * Sums every month whose days are all rolled up and that has no sums yet (months rolled up before
 * monthly sums existed, or restored without them). Returns the months summed.
 */
export async function sumRolledMonths(db: Db): Promise<string[]> {
  const month = sql<string>`substr(${analyticsDaily.day}, 1, 7)`;
  const [complete, summed] = await Promise.all([
    db.select({ month, days: count() }).from(analyticsDaily).where(eq(analyticsDaily.dimension, "total")).groupBy(month),
    db.select({ month: analyticsMonthly.month }).from(analyticsMonthly).where(eq(analyticsMonthly.dimension, "total")),
  ]);
  const done = new Set(summed.map((r) => r.month));
  const months = complete.filter((r) => !done.has(r.month) && r.days === daysOfMonth(r.month).length).map((r) => r.month);
  for (const m of months) await db.transaction((tx) => sumMonth(tx, m));
  return months;
}

/**
 * Rolls up every finished day that has no rollup yet (a day is over 10 minutes after
 * midnight, so the last views of the day have been flushed), deletes raw views older than
 * ANALYTICS_RAW_DAYS and salts older than yesterday, and sums the months whose days are all
 * rolled up and that have no sums yet. Returns the days rolled up.
 */
export async function runAnalyticsMaintenance(db: Db, now = new Date()): Promise<string[]> {
  const env = getEnv();
  const timeZone = env.SITE_TIME_ZONE;
  const finished = previousDay(dayIn(now.getTime() - 10 * 60_000, timeZone));
  // Every finished day still within the raw retention that has no rollup yet (a day without views
  // gets its zero 'total' row, so it is not looked at again).
  const window = Array.from({ length: env.ANALYTICS_RAW_DAYS }, (_, i) => previousDay(finished, i));
  // A day rolled up before filtered rollups existed is rebuilt with them (while its raw views are kept).
  const rolled = await db
    .select({ day: analyticsRolledDays.day })
    .from(analyticsRolledDays)
    .where(and(inArray(analyticsRolledDays.day, window), eq(analyticsRolledDays.filtered, true)));
  const done = new Set(rolled.map((r) => r.day));
  const days = window.filter((day) => !done.has(day)).sort();
  for (const day of days) await rollUpDay(db, day, timeZone);
  const keepFrom = previousDay(dayIn(now, timeZone), env.ANALYTICS_RAW_DAYS);
  const { start } = await dayBounds(db, keepFrom, timeZone);
  // The filtered rollups go with the raw views they were made of: a filtered report covers the same
  // days whichever it reads.
  await db.transaction(async (tx) => {
    await tx.delete(analyticsViews).where(lt(analyticsViews.minute, start));
    await tx.delete(analyticsDailyFiltered).where(lt(analyticsDailyFiltered.day, keepFrom));
    await tx.delete(analyticsPartial).where(lt(analyticsPartial.day, keepFrom));
    await tx.delete(analyticsPartialDays).where(lt(analyticsPartialDays.day, keepFrom));
    await tx
      .update(analyticsRolledDays)
      .set({ filtered: false })
      .where(and(lt(analyticsRolledDays.day, keepFrom), eq(analyticsRolledDays.filtered, true)));
  });
  await deleteOldSalts(db, previousDay(dayIn(now, timeZone)));
  const months = await sumRolledMonths(db);
  if (days.length > 0 || months.length > 0) logger.info({ days, months }, "statistics: days rolled up");
  return days;
}

/** The hourly rollup and clean-up, on one instance at a time (the job runner's lease). */
export const analyticsRollupTask = defineRecurringTask(
  "analytics.rollup",
  60 * 60_000,
  async ({ db }) => {
    await runAnalyticsMaintenance(db);
  },
  { firstRunDelayMs: 2 * 60_000, leaseMs: 5 * 60_000 },
);
