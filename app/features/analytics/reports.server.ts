import { and, count, eq, gte, inArray, isNotNull, lt, sql, type SQL } from "drizzle-orm";
import { canViewStatistics, type Actor } from "~/lib/permissions";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { authorize } from "~/server/authorize.server";
import type { Db } from "~/server/db/client.server";
import {
  analyticsConversions,
  analyticsDaily,
  analyticsDailyFiltered,
  analyticsDropped,
  analyticsMonthly,
  analyticsRolledDays,
  analyticsViews,
} from "~/server/db/schema.server";
import { getEnv } from "~/server/env.server";
import { STATISTICS_TEXT } from "./analytics-settings";
import { aggregateSql, DIMENSIONS, keyedViews, type AggregateRow, type Dimension } from "./aggregate.server";
import { foldedDayRows, foldedDays } from "./fold.server";
import { dayBounds, daysOfMonth, monthOf, previousDay, rollUpDay } from "./rollup.server";
import { dayIn } from "./visitor.server";
import { collectorEnabled } from "./collector.server";
import { flushViews } from "./ingest.server";
import {
  customPeriodProblem,
  daysBetween,
  PERIODS,
  type ConversionKindName,
  type ConversionRow,
  type ReportPeriod,
  type ReportQuery,
  type Report,
  type TableRow,
  type Totals,
} from "./report-query";

export { PERIODS, type Period, type Report, type TableRow, type Totals } from "./report-query";

/** Administrators, and moderators an administrator granted Statistics in Users. */
export function assertStatisticsReader(actor: Actor | null): Actor {
  authorize(actor, canViewStatistics, STATISTICS_TEXT.forbidden);
  return actor;
}

const ZERO: Totals = { views: 0, visitors: 0, visits: 0, bounces: 0, medianVisitSeconds: 0 };

/** The whole days of a period ending on `to` (inclusive). */
export function daysOf(to: string, length: number): string[] {
  return Array.from({ length }, (_, i) => previousDay(to, length - 1 - i));
}

/**
 * The conversions' condition for a filter: a conversion keeps its visit's entry page, referrer,
 * campaign and last post read, so those filter it (a page: as entry page or last post read);
 * country, device, browser and system are not kept with it, so those leave conversions unfiltered.
 */
function conversionFilterSql(filter: Report["filter"]): SQL | undefined {
  if (!filter) return undefined;
  const is = (column: AnyPgColumn) => sql`coalesce(${column}, '') = ${filter.value}`;
  switch (filter.dimension) {
    case "page":
      return sql`(${is(analyticsConversions.entryPath)} or ${is(analyticsConversions.lastPostPath)})`;
    case "entry":
      return is(analyticsConversions.entryPath);
    case "referrer":
      return is(analyticsConversions.referrerHost);
    case "campaign":
      return is(analyticsConversions.utmCampaign);
    default:
      return undefined;
  }
}

function addRow(into: Map<string, AggregateRow>, row: AggregateRow): void {
  const key = `${row.dimension}\n${row.value}`;
  const known = into.get(key);
  if (!known) {
    into.set(key, { ...row });
    return;
  }
  // Medians of parts are combined weighted by visits: exact for one part, close for several.
  const visits = known.visits + row.visits;
  known.median_visit_seconds =
    visits === 0 ? 0 : Math.round((known.median_visit_seconds * known.visits + row.median_visit_seconds * row.visits) / visits);
  known.views += row.views;
  known.visitors += row.visitors;
  known.visits = visits;
  known.bounces += row.bounces;
}

/**
 * The days of `days` that are read from rollups: for an unfiltered report every rolled-up day, for a
 * filtered one the days whose filtered rollup is there (those within the raw retention). A finished
 * day (over 10 minutes after its midnight) within the raw retention that lacks it is rolled up now, so
 * a report over weeks or months aggregates only today's raw views: the hourly task normally got there
 * first, and rollUpDay is idempotent and locked per day, so two readers (or instances) build the same
 * rows. The other days are read from raw views (a filtered report's days past the retention have none).
 */
async function rolledUpDays(db: Db, days: string[], timeZone: string, now: Date, filtered = false): Promise<Set<string>> {
  const rolled = new Set(
    (
      await db
        .select({ day: analyticsRolledDays.day })
        .from(analyticsRolledDays)
        .where(and(inArray(analyticsRolledDays.day, days), filtered ? eq(analyticsRolledDays.filtered, true) : undefined))
    ).map((r) => r.day),
  );
  const finished = previousDay(dayIn(new Date(now.getTime() - 10 * 60_000), timeZone));
  const keepFrom = previousDay(dayIn(now, timeZone), getEnv().ANALYTICS_RAW_DAYS);
  for (const day of days) {
    if (rolled.has(day) || day > finished || day < keepFrom) continue;
    await rollUpDay(db, day, timeZone);
    rolled.add(day);
  }
  return rolled;
}

/**
 * Where a report's days are read from: the rolled-up days from the rollups — and the whole months of
 * them that have sums from those (docs/decisions/0090-analytics-monthly-sums.md) — the folded days
 * (today, normally) from the folds, the other days from raw views.
 */
interface Sources {
  rolled: Set<string>;
  /** Months (YYYY-MM) whose days are all rolled up and that have sums; a period reads those it holds whole. */
  months: Set<string>;
  /** The folded days, with how far each is folded. */
  folded: Map<string, Date>;
}

/** The sources of some days; with `months` (unfiltered reports: filtered rollups have no monthly sums) the summed months too. */
async function sourcesOf(
  db: Db,
  days: string[],
  timeZone: string,
  now: Date,
  options: { filtered?: boolean; months?: boolean } = {},
): Promise<Sources> {
  const rolled = await rolledUpDays(db, days, timeZone, now, options.filtered);
  const [folded, months] = await Promise.all([
    foldedDays(
      db,
      days.filter((d) => !rolled.has(d)),
    ),
    options.months ? summedMonths(db, rolled) : new Set<string>(),
  ]);
  return { rolled, months, folded };
}

/** The months of which every day is among `rolled` and that have sums. */
async function summedMonths(db: Db, rolled: Set<string>): Promise<Set<string>> {
  const whole = [...new Set([...rolled].map(monthOf))].filter((month) => daysOfMonth(month).every((d) => rolled.has(d)));
  if (whole.length === 0) return new Set();
  const summed = await db
    .select({ month: analyticsMonthly.month })
    .from(analyticsMonthly)
    .where(and(eq(analyticsMonthly.dimension, "total"), inArray(analyticsMonthly.month, whole)));
  return new Set(summed.map((r) => r.month));
}

/**
 * The raw views' condition for some days: one minute range per run of consecutive days, so a
 * report never scans the rolled-up days between them. Null when there are no days.
 */
async function rawMinutes(db: Db, days: string[], timeZone: string): Promise<SQL | null> {
  const runs: [string, string][] = [];
  for (const day of [...days].sort()) {
    const run = runs[runs.length - 1];
    if (run && previousDay(day) === run[1]) run[1] = day;
    else runs.push([day, day]);
  }
  const ranges: SQL[] = [];
  for (const [from, to] of runs) {
    const start = (await dayBounds(db, from, timeZone)).start;
    const end = (await dayBounds(db, to, timeZone)).end;
    ranges.push(sql`(minute >= ${start.toISOString()}::timestamptz and minute < ${end.toISOString()}::timestamptz)`);
  }
  return ranges.length === 0 ? null : sql`(${sql.join(ranges, sql` or `)})`;
}

/** The period's rollup rows for the days: the unfiltered report's, or those of the filter's value. */
function rollupRows(days: string[], filter: Report["filter"]) {
  return filter ? filteredRollup(days, filter) : unfilteredRollup(days);
}

function unfilteredRollup(days: string[]) {
  return { table: analyticsDaily, where: inArray(analyticsDaily.day, days) };
}

function filteredRollup(days: string[], filter: NonNullable<Report["filter"]>) {
  const t = analyticsDailyFiltered;
  return {
    table: t,
    where: and(eq(t.filterDimension, filter.dimension), eq(t.filterValue, filter.value), inArray(t.day, days)),
  };
}

/** The report's raw views of some days (keyedViews): all of them, or those the filter counts. */
function reportViews(minutes: SQL, filter: Report["filter"]): SQL {
  return keyedViews(sql`select * from analytics_views where ${minutes}`, filter);
}

/** Each folded day's report rows (fold.server.ts), by day. */
type FoldedRows = Map<string, Map<string, AggregateRow>>;

/** The report rows of the folded days: the folded rows and the views since the fold, as exact as a rollup. */
async function foldedRows(db: Db, folded: Map<string, Date>, timeZone: string, filter: Report["filter"]): Promise<FoldedRows> {
  const rows = await Promise.all(
    [...folded].map(async ([day, until]) => [day, await foldedDayRows(db, day, until, timeZone, filter)] as const),
  );
  return new Map(rows);
}

/** The days read from raw views: neither rolled up nor folded. */
function rawDays(days: string[], sources: Sources): string[] {
  return days.filter((d) => !sources.rolled.has(d) && !sources.folded.has(d));
}

/** Of `days`, the summed months it holds whole, and the other rolled-up days. */
function rolledParts(days: string[], sources: Sources): { months: string[]; days: string[] } {
  const inPeriod = new Set(days);
  const months = [...sources.months].filter((month) => daysOfMonth(month).every((d) => inPeriod.has(d)));
  const summed = new Set(months);
  return { months, days: days.filter((d) => sources.rolled.has(d) && !summed.has(monthOf(d))) };
}

/**
 * The rollup rows of the rolled-up days, added up per dimension and value: unfiltered from the
 * monthly sums of whole months and the daily rows of the other days, filtered from the day's filtered
 * rollups. The median is each day's weighted by its visits.
 */
async function rolledRows(db: Db, days: string[], sources: Sources, filter: Report["filter"]): Promise<AggregateRow[]> {
  // Whole months only unfiltered: sources.months is empty for a filtered report.
  const parts = rolledParts(days, sources);
  const branches: SQL[] = [];
  if (parts.days.length > 0) {
    const { table: t, where } = rollupRows(parts.days, filter);
    branches.push(sql`select ${t.dimension} as dimension, ${t.value} as value, ${t.views} as views, ${t.visitors} as visitors,
      ${t.visits} as visits, ${t.bounces} as bounces, ${t.medianVisitSeconds}::bigint * ${t.visits} as seconds from ${t} where ${where}`);
  }
  if (parts.months.length > 0) {
    const m = analyticsMonthly;
    branches.push(sql`select ${m.dimension} as dimension, ${m.value} as value, ${m.views} as views, ${m.visitors} as visitors,
      ${m.visits} as visits, ${m.bounces} as bounces, ${m.visitSeconds} as seconds from ${m} where ${inArray(m.month, parts.months)}`);
  }
  if (branches.length === 0) return [];
  const summed: unknown = await db.execute(sql`select dimension, value, sum(views)::int as views, sum(visitors)::int as visitors,
      sum(visits)::int as visits, sum(bounces)::int as bounces,
      coalesce(sum(seconds) / nullif(sum(visits), 0), 0)::int as median_visit_seconds
    from (${sql.join(branches, sql` union all `)}) as r group by dimension, value`);
  return (summed as { rows: AggregateRow[] }).rows;
}

/**
 * Rows of every dimension for the days: folds for the folded days (`folded`, read meanwhile), rollups
 * for the rolled-up days, raw views for the rest, added up in that order.
 */
async function aggregate(
  db: Db,
  days: string[],
  sources: Sources,
  folded: Promise<FoldedRows>,
  timeZone: string,
  filter: Report["filter"],
): Promise<Map<string, AggregateRow>> {
  const raw = async (): Promise<AggregateRow[]> => {
    const minutes = await rawMinutes(db, rawDays(days, sources), timeZone);
    if (!minutes) return [];
    const rows: unknown = await db.execute(aggregateSql(reportViews(minutes, filter)));
    return (rows as { rows: AggregateRow[] }).rows;
  };
  const [foldedByDay, rolled, fromRaw] = await Promise.all([folded, rolledRows(db, days, sources, filter), raw()]);
  const rows = new Map<string, AggregateRow>();
  for (const day of days) for (const row of foldedByDay.get(day)?.values() ?? []) addRow(rows, row);
  for (const row of [...rolled, ...fromRaw]) addRow(rows, row);
  return rows;
}

function totalsOf(rows: Map<string, AggregateRow>): Totals {
  const total = rows.get("total\n");
  return total
    ? {
        views: total.views,
        visitors: total.visitors,
        visits: total.visits,
        bounces: total.bounces,
        medianVisitSeconds: total.median_visit_seconds,
      }
    : ZERO;
}

/** The period's days: a preset ending today, or a custom period once its dates pass (else 7 days, with why). */
function periodDays(query: Pick<ReportQuery, "period" | "custom">, today: string) {
  if (query.period === "custom") {
    const custom = query.custom ?? { from: "", to: "" };
    const problem = customPeriodProblem(custom, today);
    if (!problem) return { period: "custom" as const, to: custom.to, length: daysBetween(custom.from, custom.to), problem };
    return { period: "7d" as const, to: today, length: PERIODS["7d"], problem };
  }
  return { period: query.period, to: today, length: PERIODS[query.period], problem: null };
}

/**
 * The statistics for a period of whole days (site time zone) — a preset ending today or a custom
 * span — compared with the same number of days before it. This instance's noted views are stored
 * first, so the report is up to the second for what this instance served (another instance's views
 * arrive with its next flush, within seconds).
 */
export async function statisticsReport(
  db: Db,
  actor: Actor | null,
  options: { period: ReportPeriod; custom?: ReportQuery["custom"]; filter: Report["filter"]; now?: Date },
): Promise<Report> {
  assertStatisticsReader(actor);
  await flushViews(db);
  const timeZone = getEnv().SITE_TIME_ZONE;
  const now = options.now ?? new Date();
  const today = dayIn(now, timeZone);
  const chosen = periodDays({ period: options.period, custom: options.custom ?? null }, today);
  const days = daysOf(chosen.to, chosen.length);
  const previousDays = daysOf(previousDay(chosen.to, chosen.length), chosen.length);
  const sources = await sourcesOf(db, [...previousDays, ...days], timeZone, now, {
    filtered: options.filter !== null,
    months: options.filter === null,
  });
  const [{ start }, { end }, { start: previousStart }] = await Promise.all([
    dayBounds(db, days[0] ?? today, timeZone),
    dayBounds(db, chosen.to, timeZone),
    dayBounds(db, previousDays[0] ?? today, timeZone),
  ]);
  const onlyFiltered = conversionFilterSql(options.filter);
  const conversionsWhere = (from: Date, until: Date) =>
    and(isNotNull(analyticsConversions.at), gte(analyticsConversions.at, from), lt(analyticsConversions.at, until), onlyFiltered);
  const conversionRange = conversionsWhere(start, end);
  const conversionsIn = (from: Date, until: Date) =>
    db
      .select({ kind: analyticsConversions.kind, count: count() })
      .from(analyticsConversions)
      .where(conversionsWhere(from, until))
      .groupBy(analyticsConversions.kind);
  const by = async (column: AnyPgColumn): Promise<ConversionRow[]> => {
    const counted = await db
      .select({ value: sql<string>`coalesce(${column}, '')`, kind: analyticsConversions.kind, count: count() })
      .from(analyticsConversions)
      .where(conversionRange)
      .groupBy(sql`1`, analyticsConversions.kind);
    const found = new Map<string, ConversionRow>();
    for (const r of counted) {
      const row = found.get(r.value) ?? { value: r.value, total: 0, kinds: { contact: 0, subscription: 0, booking: 0 } };
      row.kinds[r.kind] += r.count;
      row.total += r.count;
      found.set(r.value, row);
    }
    return [...found.values()].sort((a, b) => b.total - a.total || a.value.localeCompare(b.value)).slice(0, 20);
  };
  // Every read below depends only on the sources: side by side (PostgreSQL answers them on several
  // connections), the folds once for both periods.
  const folded = foldedRows(db, sources.folded, timeZone, options.filter);
  const [rows, previousRows, series, conversions, previousConversions, [realtime], [dropped], byEntry, byReferrer, byCampaign, byPost] =
    await Promise.all([
      aggregate(db, days, sources, folded, timeZone, options.filter),
      aggregate(db, previousDays, sources, folded, timeZone, options.filter),
      dailySeries(db, days, sources, folded, timeZone, options.filter),
      conversionsIn(start, end),
      conversionsIn(previousStart, start),
      db
        .select({ n: sql<number>`count(distinct ${analyticsViews.visitorId})::int` })
        .from(analyticsViews)
        .where(gte(analyticsViews.minute, new Date(now.getTime() - 5 * 60_000 - (now.getTime() % 60_000)))),
      db
        .select({ n: sql<number>`coalesce(sum(${analyticsDropped.views}), 0)::int` })
        .from(analyticsDropped)
        .where(and(gte(analyticsDropped.minute, start), lt(analyticsDropped.minute, end), lt(analyticsDropped.minute, now))),
      by(analyticsConversions.entryPath),
      by(analyticsConversions.referrerHost),
      by(analyticsConversions.utmCampaign),
      by(analyticsConversions.lastPostPath),
    ]);
  const tables = Object.fromEntries(DIMENSIONS.map((d) => [d, [] as TableRow[]])) as Record<Dimension, TableRow[]>;
  for (const row of rows.values()) {
    if (row.dimension === "total") continue;
    tables[row.dimension as Dimension]?.push({ value: row.value, views: row.views, visitors: row.visitors, visits: row.visits });
  }
  const pageVisitors = new Map(tables.page.map((r) => [r.value, r.visitors]));
  for (const dimension of DIMENSIONS) {
    tables[dimension] = tables[dimension]
      .sort((a, b) => b.visits - a.visits || b.views - a.views || a.value.localeCompare(b.value))
      .slice(0, 50);
  }
  return {
    period: chosen.period,
    from: days[0] ?? today,
    to: chosen.to,
    today,
    custom: options.period === "custom" ? (options.custom ?? { from: "", to: "" }) : null,
    periodError: chosen.problem,
    totals: totalsOf(rows),
    previous: totalsOf(previousRows),
    series,
    tables,
    conversions: conversions.map((c) => ({ kind: c.kind, count: c.count })),
    previousConversions: previousConversions.map((c) => ({ kind: c.kind, count: c.count })),
    conversionsBy: {
      entry: byEntry,
      referrer: byReferrer,
      campaign: byCampaign,
      post: byPost.map((r) => ({ ...r, visitors: pageVisitors.get(r.value) ?? null })),
    },
    realtime: realtime?.n ?? 0,
    sampled: dropped?.n ?? 0,
    filter: options.filter,
  };
}

/** Views and visitors per day: rollups for the rolled days, folds for folded ones, raw views for the rest. */
async function dailySeries(
  db: Db,
  days: string[],
  sources: Sources,
  folded: Promise<FoldedRows>,
  timeZone: string,
  filter: Report["filter"],
): Promise<Report["series"]> {
  type DayFigures = { day: string; views: number; visitors: number };
  const rolledDays = days.filter((d) => sources.rolled.has(d));
  const rolled = async (): Promise<DayFigures[]> => {
    if (rolledDays.length === 0) return [];
    const { table, where } = rollupRows(rolledDays, filter);
    return db
      .select({ day: table.day, views: table.views, visitors: table.visitors })
      .from(table)
      .where(and(eq(table.dimension, "total"), where));
  };
  const raw = async (): Promise<DayFigures[]> => {
    const minutes = await rawMinutes(db, rawDays(days, sources), timeZone);
    if (!minutes) return [];
    const rows: unknown = await db.execute(sql`select to_char(minute at time zone ${timeZone}, 'YYYY-MM-DD') as day,
      coalesce(sum(views), 0)::int as views, count(distinct visitor_id)::int as visitors
      from (${reportViews(minutes, filter)}) as v group by 1`);
    return (rows as { rows: DayFigures[] }).rows;
  };
  const [foldedByDay, fromRollups, fromRaw] = await Promise.all([folded, rolled(), raw()]);
  const byDay = new Map<string, { views: number; visitors: number }>();
  for (const [day, rows] of foldedByDay) {
    const total = rows.get("total\n");
    if (total) byDay.set(day, { views: total.views, visitors: total.visitors });
  }
  for (const d of [...fromRollups, ...fromRaw]) byDay.set(d.day, { views: d.views, visitors: d.visitors });
  return days.map((d) => ({ day: d, ...(byDay.get(d) ?? { views: 0, visitors: 0 }) }));
}

/** Views and visitors of a page over some days (visitors summed over days, as every period's are). */
export interface PageFigures {
  views: number;
  visitors: number;
}

/** Which pages: a condition on a path column, and the same as a test of one path. */
interface PathMatch {
  sql: (column: AnyPgColumn) => SQL;
  test: (path: string) => boolean;
}

/** Views and visitors per page over the days, rollups for the rolled days, folds for folded ones and raw views for the rest, for the pages `paths` matches. */
async function pageViews(
  db: Db,
  days: string[],
  sources: Sources,
  folded: FoldedRows,
  timeZone: string,
  paths: PathMatch,
): Promise<Map<string, PageFigures>> {
  const found = new Map<string, PageFigures>();
  const add = (path: string, views: number, visitors: number) => {
    const known = found.get(path) ?? { views: 0, visitors: 0 };
    found.set(path, { views: known.views + views, visitors: known.visitors + visitors });
  };
  const rolledDays = days.filter((d) => sources.rolled.has(d));
  if (rolledDays.length > 0) {
    const daily = await db
      .select({
        path: analyticsDaily.value,
        views: sql<number>`sum(${analyticsDaily.views})::int`,
        visitors: sql<number>`sum(${analyticsDaily.visitors})::int`,
      })
      .from(analyticsDaily)
      .where(and(eq(analyticsDaily.dimension, "page"), inArray(analyticsDaily.day, rolledDays), paths.sql(analyticsDaily.value)))
      .groupBy(analyticsDaily.value);
    for (const r of daily) add(r.path, r.views, r.visitors);
  }
  for (const rows of folded.values()) {
    for (const r of rows.values()) if (r.dimension === "page" && paths.test(r.value)) add(r.value, r.views, r.visitors);
  }
  const minutes = await rawMinutes(db, rawDays(days, sources), timeZone);
  if (minutes) {
    // Visitor ids are per day: a visitor counted on two days is two, as in the rollups.
    const day = sql`to_char(${analyticsViews.minute} at time zone ${timeZone}, 'YYYY-MM-DD')`;
    const raw = await db
      .select({
        path: analyticsViews.path,
        views: sql<number>`coalesce(sum(${analyticsViews.views}), 0)::int`,
        visitors: sql<number>`count(distinct (${day}, ${analyticsViews.visitorId}))::int`,
      })
      .from(analyticsViews)
      .where(and(minutes, paths.sql(analyticsViews.path)))
      .groupBy(analyticsViews.path);
    for (const r of raw) add(r.path, r.views, r.visitors);
  }
  return found;
}

/** How many days the figures beside posts (Blog Management, the editor) cover, today included. */
export const POST_FIGURES_DAYS = 30;

/** Views per page path over the last 30 days including today (Blog Management's column and the editor), for the given paths. */
export async function viewsOfPaths(db: Db, paths: string[], now = new Date()): Promise<Map<string, number>> {
  if (paths.length === 0) return new Map();
  const timeZone = getEnv().SITE_TIME_ZONE;
  const days = daysOf(dayIn(now, timeZone), POST_FIGURES_DAYS);
  const sources = await sourcesOf(db, days, timeZone, now);
  const wanted = new Set(paths);
  const folded = await foldedRows(db, sources.folded, timeZone, null);
  const figures = await pageViews(db, days, sources, folded, timeZone, {
    sql: (column) => inArray(column, paths),
    test: (path) => wanted.has(path),
  });
  return new Map([...figures].map(([path, f]) => [path, f.views]));
}

export type PostFigures = PageFigures & { conversions: Record<ConversionKindName, number> };

/**
 * The figures shown beside posts where they are managed, or null when not shown: to those who may
 * read the statistics, while counting is on (with counting off a post's zero would mislead).
 */
export function postFiguresShown(actor: Actor | null): boolean {
  return collectorEnabled() && canViewStatistics(actor);
}

/** One post's figures over the last 30 days: views, visitors and the conversions it was the last post read before. */
export async function postStatistics(db: Db, path: string, now = new Date()): Promise<PostFigures> {
  const timeZone = getEnv().SITE_TIME_ZONE;
  const days = daysOf(dayIn(now, timeZone), POST_FIGURES_DAYS);
  const sources = await sourcesOf(db, days, timeZone, now);
  const one: PathMatch = { sql: (column) => eq(column, path), test: (p) => p === path };
  const folded = await foldedRows(db, sources.folded, timeZone, null);
  const figures = (await pageViews(db, days, sources, folded, timeZone, one)).get(path) ?? { views: 0, visitors: 0 };
  const start = (await dayBounds(db, days[0] ?? dayIn(now, timeZone), timeZone)).start;
  const counted = await db
    .select({ kind: analyticsConversions.kind, count: count() })
    .from(analyticsConversions)
    .where(and(eq(analyticsConversions.lastPostPath, path), isNotNull(analyticsConversions.at), gte(analyticsConversions.at, start)))
    .groupBy(analyticsConversions.kind);
  const conversions: Record<ConversionKindName, number> = { contact: 0, subscription: 0, booking: 0 };
  for (const c of counted) conversions[c.kind] = c.count;
  return { ...figures, conversions };
}

/** A post's path (the dashboard's top post of the week is one). */
const POST_PATH = /^\/7fs\/[^/]+\/[^/]+$/;

/** The dashboard's card: views per day for 7 days and the most viewed post of the week. */
export async function weekAtAGlance(
  db: Db,
  now = new Date(),
): Promise<{ series: { day: string; views: number; visitors: number }[]; topPost: { path: string; views: number } | null }> {
  const timeZone = getEnv().SITE_TIME_ZONE;
  const days = daysOf(dayIn(now, timeZone), 7);
  const sources = await sourcesOf(db, days, timeZone, now);
  const folded = foldedRows(db, sources.folded, timeZone, null);
  const posts: PathMatch = { sql: (column) => sql`${column} ~ ${POST_PATH.source}`, test: (path) => POST_PATH.test(path) };
  const [series, postFigures] = await Promise.all([
    dailySeries(db, days, sources, folded, timeZone, null),
    folded.then((rows) => pageViews(db, days, sources, rows, timeZone, posts)),
  ]);
  const [top] = [...postFigures].sort((a, b) => b[1].views - a[1].views || a[0].localeCompare(b[0]));
  return { series, topPost: top ? { path: top[0], views: top[1].views } : null };
}

/** One table of a report as CSV. */
export function reportCsv(rows: TableRow[]): string {
  const cell = (value: string) => (/^[=+\-@]/.test(value) ? `'${value}` : value).replaceAll('"', '""');
  return ["value,views,visitors,visits", ...rows.map((r) => `"${cell(r.value)}",${r.views},${r.visitors},${r.visits}`)].join("\n") + "\n";
}
