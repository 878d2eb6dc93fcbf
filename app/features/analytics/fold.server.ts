import { and, eq, gte, inArray, lt, sql, type SQL } from "drizzle-orm";
import type { Db } from "~/server/db/client.server";
import { analyticsPartial, analyticsPartialDays, analyticsRolledDays, analyticsViews } from "~/server/db/schema.server";
import { getEnv } from "~/server/env.server";
import { defineRecurringTask } from "~/server/jobs/recurring.server";
import { aggregateSql, DIMENSIONS, keyedViews, type AggregateRow, type Dimension } from "./aggregate.server";
import { dayBounds, previousDay } from "./rollup.server";
import { dayIn } from "./visitor.server";

/**
 * The day so far, folded (docs/decisions/0084-analytics-today-folds.md). Every figure of a day's
 * report — views, visits, bounces, visitors (counted per value), page visits and the number of
 * visits of each length — adds up over disjoint sets of visitors, since a visit belongs to one
 * visitor. So a fold up to an instant `to` takes the visitors seen since the last fold (at `from`),
 * adds what all their views before `to` give and takes back what their views before `from` gave;
 * a report adds the folded rows, what the visitors seen since the fold give with all their views of
 * the day, and takes back what those visitors' views before the fold gave. A visit that spans the
 * fold is thus counted once, whole, with its exact length, bounce and first view.
 */

/** Views are folded up to this long ago: an instance stores its noted views every 5 seconds. */
export const FOLD_LAG_MS = 2 * 60_000;
/**
 * One fold covers at most this much time, and at most about this many views (whole minutes, at
 * least one), so each transaction stays short: PGlite serves requests only between them.
 */
const MAX_FOLD_STEP_MS = 15 * 60_000;
const MAX_FOLD_STEP_VIEWS = 2_000;

type Filter = { dimension: Dimension; value?: string } | null;

/** The raw views in [dayStart, until) of the visitors with a view in [seenFrom, seenUntil). */
function viewsOfVisitorsSeen(dayStart: Date, until: Date, seenFrom: Date, seenUntil: Date): SQL {
  const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;
  return sql`select * from analytics_views where minute >= ${at(dayStart)} and minute < ${at(until)}
    and visitor_id in (select visitor_id from analytics_views where minute >= ${at(seenFrom)} and minute < ${at(seenUntil)})`;
}

/**
 * Rows (filter_value, dimension, value, views, visitors, visits, bounces) of `added` minus those of
 * `removed`, both aggregated (with 'length' rows) under the filter.
 */
function difference(added: SQL, removed: SQL, filter: Filter): SQL {
  const rows = (views: SQL) => aggregateSql(keyedViews(views, filter), { lengths: true });
  return sql`select filter_value, dimension, value, sum(views)::int as views, sum(visitors)::int as visitors,
      sum(visits)::int as visits, sum(bounces)::int as bounces
    from (select filter_value, dimension, value, views, visitors, visits, bounces from (${rows(added)}) as a
      union all select filter_value, dimension, value, -views, -visitors, -visits, -bounces from (${rows(removed)}) as r) as d
    group by filter_value, dimension, value`;
}

/**
 * Adds to the day's folds what the visitors seen in [from, to) bring with their views before `to`,
 * and takes back what they brought with their views before `from` (inside the fold's transaction).
 */
async function foldStep(tx: Db, day: string, start: Date, from: Date, to: Date): Promise<void> {
  // Their views before `to` and before `from`, read once into temporary tables (dropped at commit),
  // not once per filter dimension.
  await tx.execute(sql`create temporary table analytics_fold_added on commit drop as ${viewsOfVisitorsSeen(start, to, from, to)}`);
  await tx.execute(sql`create temporary table analytics_fold_removed on commit drop as ${viewsOfVisitorsSeen(start, from, from, to)}`);
  const added = sql`select * from analytics_fold_added`;
  const removed = sql`select * from analytics_fold_removed`;
  for (const dimension of [null, ...DIMENSIONS]) {
    const filter = dimension ? { dimension } : null;
    await tx.execute(sql`insert into analytics_partial (day, filter_dimension, filter_value, dimension, value, views, visitors, visits, bounces)
      select ${day}, ${dimension ?? ""}, filter_value, dimension, value, views, visitors, visits, bounces
      from (${difference(added, removed, filter)}) as d where views <> 0 or visits <> 0 or visitors <> 0 or bounces <> 0
      on conflict (day, filter_dimension, filter_value, dimension, value) do update set
        views = analytics_partial.views + excluded.views, visitors = analytics_partial.visitors + excluded.visitors,
        visits = analytics_partial.visits + excluded.visits, bounces = analytics_partial.bounces + excluded.bounces`);
  }
  // A row that falls to zero (a visit grew longer than its old length's row; a value no visit has
  // now) stays until the day is rolled up: finding it would scan the day's rows, and reports skip it.
}

/**
 * Folds the views of `day` up to `until` (at most), in steps of at most 15 minutes or about 2,000
 * views, each its own transaction under the day's rollup lock: a fold and the day's rollup, or two instances' folds,
 * never interleave, and a fold already done is not done again. A rolled-up day is not folded.
 */
export async function foldDay(
  db: Db,
  day: string,
  until: Date,
  options: { timeZone?: string; signal?: AbortSignal; stepViews?: number } = {},
): Promise<void> {
  const { timeZone = getEnv().SITE_TIME_ZONE, signal, stepViews = MAX_FOLD_STEP_VIEWS } = options;
  const { start, end } = await dayBounds(db, day, timeZone);
  const target = new Date(Math.min(until.getTime(), end.getTime()));
  for (;;) {
    if (signal?.aborted) return;
    const done = await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`analytics.rollup.${day}`}))`);
      const [rolled] = await tx.select({ day: analyticsRolledDays.day }).from(analyticsRolledDays).where(eq(analyticsRolledDays.day, day));
      if (rolled) return true;
      const [state] = await tx.select().from(analyticsPartialDays).where(eq(analyticsPartialDays.day, day));
      const from = state?.foldedUntil ?? start;
      if (from >= target) return true;
      let to = new Date(Math.min(target.getTime(), from.getTime() + MAX_FOLD_STEP_MS));
      const [busy] = await tx
        .select({ minute: analyticsViews.minute })
        .from(analyticsViews)
        .where(and(gte(analyticsViews.minute, from), lt(analyticsViews.minute, to)))
        .orderBy(analyticsViews.minute)
        .offset(stepViews)
        .limit(1);
      // A busy stretch: up to the minute of the view past the bound (at least one minute, not past the target).
      if (busy) {
        const nextMinute = from.getTime() - (from.getTime() % 60_000) + 60_000;
        to = new Date(Math.min(target.getTime(), Math.max(busy.minute.getTime(), nextMinute)));
      }
      // No view since the last fold (a quiet night, counting off): only the mark moves.
      const [seen] = await tx
        .select({ one: sql<number>`1` })
        .from(analyticsViews)
        .where(and(gte(analyticsViews.minute, from), lt(analyticsViews.minute, to)))
        .limit(1);
      if (seen) await foldStep(tx, day, start, from, to);
      await tx
        .insert(analyticsPartialDays)
        .values({ day, foldedUntil: to })
        .onConflictDoUpdate({ target: analyticsPartialDays.day, set: { foldedUntil: to } });
      return to >= target;
    });
    if (done) return;
  }
}

/**
 * Folds today up to two minutes ago, and finishes folding yesterday when it was being folded and is
 * not rolled up yet (the hourly rollup replaces it soon after midnight).
 */
export async function foldRecentViews(db: Db, now = new Date(), signal?: AbortSignal): Promise<void> {
  const timeZone = getEnv().SITE_TIME_ZONE;
  const cut = new Date(now.getTime() - FOLD_LAG_MS - (now.getTime() % 60_000));
  const today = dayIn(cut, timeZone);
  const yesterday = previousDay(today);
  const [started] = await db.select().from(analyticsPartialDays).where(eq(analyticsPartialDays.day, yesterday));
  if (started) await foldDay(db, yesterday, cut, { timeZone, signal });
  await foldDay(db, today, cut, { timeZone, signal });
}

/** Every minute, on one instance at a time (the job runner's lease). */
export const analyticsFoldTask = defineRecurringTask(
  "analytics.fold",
  60_000,
  async ({ db, signal }) => {
    await foldRecentViews(db, new Date(), signal);
  },
  { leaseMs: 2 * 60_000, retryMs: 60_000 },
);

/** The days of `days` that have folds (not rolled-up days: their rollup deleted them), with how far. */
export async function foldedDays(db: Db, days: string[]): Promise<Map<string, Date>> {
  if (days.length === 0) return new Map();
  const rows = await db.select().from(analyticsPartialDays).where(inArray(analyticsPartialDays.day, days));
  return new Map(rows.map((r) => [r.day, r.foldedUntil]));
}

/** percentile_disc(0.5) of visit lengths given as 'length' rows: the first length at or past half of the visits. */
function medianOfLengths(lengths: AggregateRow[]): number {
  const sorted = lengths.map((r) => ({ seconds: Number(r.value), visits: r.visits })).sort((a, b) => a.seconds - b.seconds);
  const total = sorted.reduce((sum, r) => sum + r.visits, 0);
  let seen = 0;
  for (const r of sorted) {
    seen += r.visits;
    if (seen * 2 >= total && r.visits > 0) return r.seconds;
  }
  return 0;
}

/**
 * A folded day's report rows (key "dimension\nvalue"), as exact as the day's rollup: the folded rows,
 * plus the day's views of the visitors seen since the fold, minus their views before it.
 */
export async function foldedDayRows(
  db: Db,
  day: string,
  foldedUntil: Date,
  timeZone: string,
  filter: { dimension: Dimension; value: string } | null,
): Promise<Map<string, AggregateRow>> {
  const { start, end } = await dayBounds(db, day, timeZone);
  const p = analyticsPartial;
  const folded = sql`select ${p.dimension} as dimension, ${p.value} as value, ${p.views} as views, ${p.visitors} as visitors,
    ${p.visits} as visits, ${p.bounces} as bounces from ${p}
    where ${and(eq(p.day, day), eq(p.filterDimension, filter?.dimension ?? ""), eq(p.filterValue, filter?.value ?? ""))}`;
  const since = difference(
    viewsOfVisitorsSeen(start, end, foldedUntil, end),
    viewsOfVisitorsSeen(start, foldedUntil, foldedUntil, end),
    filter,
  );
  const raw: unknown = await db.execute(sql`select dimension, value, sum(views)::int as views, sum(visitors)::int as visitors,
      sum(visits)::int as visits, sum(bounces)::int as bounces
    from (${folded} union all select dimension, value, views, visitors, visits, bounces from (${since}) as s) as a
    group by dimension, value having sum(views) <> 0 or sum(visits) <> 0`);
  const rows = new Map<string, AggregateRow>();
  const lengths: AggregateRow[] = [];
  for (const r of (raw as { rows: Omit<AggregateRow, "median_visit_seconds">[] }).rows) {
    const row = { ...r, median_visit_seconds: 0 };
    if (row.dimension === "length") lengths.push(row);
    else rows.set(`${row.dimension}\n${row.value}`, row);
  }
  const total = rows.get("total\n");
  if (total) total.median_visit_seconds = medianOfLengths(lengths);
  return rows;
}
