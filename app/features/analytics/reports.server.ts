import { and, count, eq, gte, inArray, isNotNull, lt, sql, type SQL } from "drizzle-orm";
import { canEnterArea, type Actor } from "~/lib/permissions";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { authorize } from "~/server/authorize.server";
import type { Db } from "~/server/db/client.server";
import { analyticsConversions, analyticsDaily, analyticsDropped, analyticsRolledDays, analyticsViews } from "~/server/db/schema.server";
import { getEnv } from "~/server/env.server";
import { ForbiddenError } from "~/server/errors.server";
import { readAnalyticsSettings } from "./analytics-settings.server";
import { STATISTICS_TEXT } from "./analytics-settings";
import { aggregateSql, DIMENSIONS, type AggregateRow, type Dimension } from "./aggregate.server";
import { dayBounds, previousDay, rollUpDay } from "./rollup.server";
import { dayIn } from "./visitor.server";
import { PERIODS, type Period, type Report, type TableRow, type Totals } from "./report-query";

export { PERIODS, type Period, type Report, type TableRow, type Totals } from "./report-query";

/** Administrators, and moderators when the owner allows it. */
export async function assertStatisticsReader(db: Db, actor: Actor | null): Promise<Actor> {
  authorize(actor, (a) => canEnterArea(a, "statistics"), STATISTICS_TEXT.forbidden);
  if (actor.role !== "admin" && !(await readAnalyticsSettings(db)).moderatorsMayView) throw new ForbiddenError(STATISTICS_TEXT.forbidden);
  return actor;
}

const ZERO: Totals = { views: 0, visitors: 0, visits: 0, bounces: 0, medianVisitSeconds: 0 };

/** The whole days of a period ending on `to` (inclusive). */
export function daysOf(to: string, length: number): string[] {
  return Array.from({ length }, (_, i) => previousDay(to, length - 1 - i));
}

/** The views' condition for a filter: a page's views, or the visits that came through a value. */
function filterSql(filter: { dimension: Dimension; value: string }): SQL {
  const nullable = (column: string) => sql`coalesce(${sql.raw(column)}, '') = ${filter.value}`;
  const visitsWhere = (condition: SQL) => sql`visit_id in (select visit_id from analytics_views where ${condition})`;
  switch (filter.dimension) {
    case "page":
      return sql`path = ${filter.value}`;
    case "entry":
      return visitsWhere(sql`path = ${filter.value}`);
    case "referrer":
      return visitsWhere(nullable("referrer_host"));
    case "campaign":
      return visitsWhere(nullable("utm_campaign"));
    case "country":
      return visitsWhere(nullable("country"));
    default:
      return visitsWhere(sql`${sql.raw(filter.dimension)} = ${filter.value}`);
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
 * The days of `days` that are read from rollups. A finished day (over 10 minutes after its
 * midnight) within the raw retention that has no rollup yet is rolled up now, so a report over weeks
 * or months aggregates only today's raw views: the hourly task normally got there first, and
 * rollUpDay is idempotent and locked per day, so two readers (or instances) build the same rows.
 */
async function rolledUpDays(db: Db, days: string[], timeZone: string, now: Date): Promise<Set<string>> {
  const rolled = new Set(
    (await db.select({ day: analyticsRolledDays.day }).from(analyticsRolledDays).where(inArray(analyticsRolledDays.day, days))).map(
      (r) => r.day,
    ),
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

/** Rows of every dimension for the days: rollups for the rolled days, raw views for the rest (today, or all when filtered). */
async function aggregate(
  db: Db,
  days: string[],
  rolled: Set<string>,
  timeZone: string,
  filter: Report["filter"],
): Promise<Map<string, AggregateRow>> {
  const rows = new Map<string, AggregateRow>();
  const rolledDays = days.filter((d) => rolled.has(d));
  if (rolledDays.length > 0) {
    const daily = await db
      .select({
        dimension: analyticsDaily.dimension,
        value: analyticsDaily.value,
        views: sql<number>`sum(${analyticsDaily.views})::int`,
        visitors: sql<number>`sum(${analyticsDaily.visitors})::int`,
        visits: sql<number>`sum(${analyticsDaily.visits})::int`,
        bounces: sql<number>`sum(${analyticsDaily.bounces})::int`,
        median: sql<number>`coalesce(sum(${analyticsDaily.medianVisitSeconds} * ${analyticsDaily.visits}) / nullif(sum(${analyticsDaily.visits}), 0), 0)::int`,
      })
      .from(analyticsDaily)
      .where(inArray(analyticsDaily.day, rolledDays))
      .groupBy(analyticsDaily.dimension, analyticsDaily.value);
    for (const r of daily) addRow(rows, { ...r, median_visit_seconds: r.median });
  }
  const minutes = await rawMinutes(
    db,
    days.filter((d) => !rolled.has(d)),
    timeZone,
  );
  if (minutes) {
    const views = sql`select * from analytics_views where ${minutes}${filter ? sql` and ${filterSql(filter)}` : sql``}`;
    const raw: unknown = await db.execute(aggregateSql(views));
    for (const r of (raw as { rows: AggregateRow[] }).rows) addRow(rows, r);
  }
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

/** The statistics for a period of whole days ending today (site time zone), compared with the period before. */
export async function statisticsReport(
  db: Db,
  actor: Actor | null,
  options: { period: Period; filter: Report["filter"]; now?: Date },
): Promise<Report> {
  await assertStatisticsReader(db, actor);
  const timeZone = getEnv().SITE_TIME_ZONE;
  const now = options.now ?? new Date();
  const today = dayIn(now, timeZone);
  const length = PERIODS[options.period];
  const days = daysOf(today, length);
  const previousDays = daysOf(previousDay(today, length), length);
  const rolled = options.filter ? new Set<string>() : await rolledUpDays(db, [...previousDays, ...days], timeZone, now);
  const [rows, previousRows] = await Promise.all([
    aggregate(db, days, rolled, timeZone, options.filter),
    aggregate(db, previousDays, rolled, timeZone, options.filter),
  ]);
  const tables = Object.fromEntries(DIMENSIONS.map((d) => [d, [] as TableRow[]])) as Record<Dimension, TableRow[]>;
  for (const row of rows.values()) {
    if (row.dimension === "total") continue;
    tables[row.dimension as Dimension]?.push({ value: row.value, views: row.views, visitors: row.visitors, visits: row.visits });
  }
  for (const dimension of DIMENSIONS) {
    tables[dimension] = tables[dimension]
      .sort((a, b) => b.visits - a.visits || b.views - a.views || a.value.localeCompare(b.value))
      .slice(0, 50);
  }
  const { start } = await dayBounds(db, days[0] ?? today, timeZone);
  const series = await dailySeries(db, days, rolled, timeZone, options.filter);
  const conversionRange = and(isNotNull(analyticsConversions.at), gte(analyticsConversions.at, start));
  const conversions = await db
    .select({ kind: analyticsConversions.kind, count: count() })
    .from(analyticsConversions)
    .where(conversionRange)
    .groupBy(analyticsConversions.kind);
  const by = async (column: AnyPgColumn) =>
    (
      await db
        .select({ value: sql<string>`coalesce(${column}, '')`, count: count() })
        .from(analyticsConversions)
        .where(conversionRange)
        .groupBy(sql`1`)
        .orderBy(sql`2 desc`, sql`1`)
        .limit(20)
    ).map((r) => ({ value: r.value, count: r.count }));
  const [realtime] = await db
    .select({ n: sql<number>`count(distinct ${analyticsViews.visitorId})::int` })
    .from(analyticsViews)
    .where(gte(analyticsViews.minute, new Date(now.getTime() - 5 * 60_000 - (now.getTime() % 60_000))));
  const [dropped] = await db
    .select({ n: sql<number>`coalesce(sum(${analyticsDropped.views}), 0)::int` })
    .from(analyticsDropped)
    .where(and(gte(analyticsDropped.minute, start), lt(analyticsDropped.minute, now)));
  return {
    from: days[0] ?? today,
    to: today,
    totals: totalsOf(rows),
    previous: totalsOf(previousRows),
    series,
    tables,
    conversions: conversions.map((c) => ({ kind: c.kind, count: c.count })),
    conversionsBy: {
      entry: await by(analyticsConversions.entryPath),
      referrer: await by(analyticsConversions.referrerHost),
      campaign: await by(analyticsConversions.utmCampaign),
      post: await by(analyticsConversions.lastPostPath),
    },
    realtime: realtime?.n ?? 0,
    sampled: dropped?.n ?? 0,
    filter: options.filter,
  };
}

/** Views and visitors per day: rollups for the rolled days, raw views for the rest. */
async function dailySeries(
  db: Db,
  days: string[],
  rolled: Set<string>,
  timeZone: string,
  filter: Report["filter"],
): Promise<Report["series"]> {
  const byDay = new Map<string, { views: number; visitors: number }>();
  const rolledDays = days.filter((d) => rolled.has(d));
  if (rolledDays.length > 0) {
    const daily = await db
      .select({ day: analyticsDaily.day, views: analyticsDaily.views, visitors: analyticsDaily.visitors })
      .from(analyticsDaily)
      .where(and(eq(analyticsDaily.dimension, "total"), inArray(analyticsDaily.day, rolledDays)));
    for (const d of daily) byDay.set(d.day, { views: d.views, visitors: d.visitors });
  }
  const minutes = await rawMinutes(
    db,
    days.filter((d) => !rolled.has(d)),
    timeZone,
  );
  if (minutes) {
    const day = sql<string>`to_char(${analyticsViews.minute} at time zone ${timeZone}, 'YYYY-MM-DD')`;
    const raw = await db
      .select({ day, views: sql<number>`count(*)::int`, visitors: sql<number>`count(distinct ${analyticsViews.visitorId})::int` })
      .from(analyticsViews)
      .where(and(minutes, filter ? filterSql(filter) : undefined))
      .groupBy(sql`1`);
    for (const r of raw) byDay.set(r.day, { views: r.views, visitors: r.visitors });
  }
  return days.map((d) => ({ day: d, ...(byDay.get(d) ?? { views: 0, visitors: 0 }) }));
}

/** Views per page over the days, rollups for the rolled days and raw views for the rest, for the pages `paths` matches. */
async function pageViews(
  db: Db,
  days: string[],
  rolled: Set<string>,
  timeZone: string,
  paths: (column: AnyPgColumn) => SQL,
): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  const add = (path: string, views: number) => found.set(path, (found.get(path) ?? 0) + views);
  const rolledDays = days.filter((d) => rolled.has(d));
  if (rolledDays.length > 0) {
    const daily = await db
      .select({ path: analyticsDaily.value, views: sql<number>`sum(${analyticsDaily.views})::int` })
      .from(analyticsDaily)
      .where(and(eq(analyticsDaily.dimension, "page"), inArray(analyticsDaily.day, rolledDays), paths(analyticsDaily.value)))
      .groupBy(analyticsDaily.value);
    for (const r of daily) add(r.path, r.views);
  }
  const minutes = await rawMinutes(
    db,
    days.filter((d) => !rolled.has(d)),
    timeZone,
  );
  if (minutes) {
    const raw = await db
      .select({ path: analyticsViews.path, views: count() })
      .from(analyticsViews)
      .where(and(minutes, paths(analyticsViews.path)))
      .groupBy(analyticsViews.path);
    for (const r of raw) add(r.path, r.views);
  }
  return found;
}

/** Views per page path over the last 30 days including today (Blog Management's column and the editor), for the given paths. */
export async function viewsOfPaths(db: Db, paths: string[], now = new Date()): Promise<Map<string, number>> {
  if (paths.length === 0) return new Map();
  const timeZone = getEnv().SITE_TIME_ZONE;
  const days = daysOf(dayIn(now, timeZone), 30);
  const rolled = await rolledUpDays(db, days, timeZone, now);
  return pageViews(db, days, rolled, timeZone, (column) => inArray(column, paths));
}

/** The dashboard's card: views per day for 7 days and the most viewed post of the week. */
export async function weekAtAGlance(
  db: Db,
  now = new Date(),
): Promise<{ series: { day: string; views: number }[]; topPost: { path: string; views: number } | null }> {
  const timeZone = getEnv().SITE_TIME_ZONE;
  const days = daysOf(dayIn(now, timeZone), 7);
  const rolled = await rolledUpDays(db, days, timeZone, now);
  const series = await dailySeries(db, days, rolled, timeZone, null);
  const posts = await pageViews(db, days, rolled, timeZone, (column) => sql`${column} ~ '^/7fs/[^/]+/[^/]+$'`);
  const [top] = [...posts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return { series: series.map((s) => ({ day: s.day, views: s.views })), topPost: top ? { path: top[0], views: top[1] } : null };
}

/** One table of a report as CSV. */
export function reportCsv(rows: TableRow[]): string {
  const cell = (value: string) => (/^[=+\-@]/.test(value) ? `'${value}` : value).replaceAll('"', '""');
  return ["value,views,visitors,visits", ...rows.map((r) => `"${cell(r.value)}",${r.views},${r.visitors},${r.visits}`)].join("\n") + "\n";
}
