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
import { dayBounds, previousDay } from "./rollup.server";
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

/** Rows of every dimension for the days: rollups for rolled days, raw views for the rest (and everything when filtered). */
async function aggregate(db: Db, days: string[], timeZone: string, filter: Report["filter"]): Promise<Map<string, AggregateRow>> {
  const rows = new Map<string, AggregateRow>();
  const first = days[0];
  const last = days[days.length - 1];
  if (!first || !last) return rows;
  const rolled = filter
    ? new Set<string>()
    : new Set(
        (await db.select({ day: analyticsRolledDays.day }).from(analyticsRolledDays).where(inArray(analyticsRolledDays.day, days))).map(
          (r) => r.day,
        ),
      );
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
  const rawDays = days.filter((d) => !rolled.has(d));
  if (rawDays.length > 0) {
    const start = (await dayBounds(db, rawDays[0] ?? first, timeZone)).start;
    const end = (await dayBounds(db, rawDays[rawDays.length - 1] ?? last, timeZone)).end;
    const where = filter ? filterSql(filter) : undefined;
    const views = sql`select * from analytics_views where minute >= ${start.toISOString()}::timestamptz and minute < ${end.toISOString()}::timestamptz${where ? sql` and ${where}` : sql``}`;
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
  const [rows, previousRows] = await Promise.all([
    aggregate(db, days, timeZone, options.filter),
    aggregate(db, previousDays, timeZone, options.filter),
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
  const series = await dailySeries(db, days, start, timeZone, options.filter);
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

/** Views and visitors per day: rollups where there are, raw views otherwise. */
async function dailySeries(db: Db, days: string[], start: Date, timeZone: string, filter: Report["filter"]): Promise<Report["series"]> {
  const byDay = new Map<string, { views: number; visitors: number }>();
  if (!filter) {
    const daily = await db
      .select({ day: analyticsDaily.day, views: analyticsDaily.views, visitors: analyticsDaily.visitors })
      .from(analyticsDaily)
      .where(and(eq(analyticsDaily.dimension, "total"), inArray(analyticsDaily.day, days)));
    for (const d of daily) byDay.set(d.day, { views: d.views, visitors: d.visitors });
  }
  const day = sql<string>`to_char(${analyticsViews.minute} at time zone ${timeZone}, 'YYYY-MM-DD')`;
  const raw = await db
    .select({ day, views: sql<number>`count(*)::int`, visitors: sql<number>`count(distinct ${analyticsViews.visitorId})::int` })
    .from(analyticsViews)
    .where(and(gte(analyticsViews.minute, start), filter ? filterSql(filter) : undefined))
    .groupBy(sql`1`);
  for (const r of raw) if (!byDay.has(r.day)) byDay.set(r.day, { views: r.views, visitors: r.visitors });
  return days.map((d) => ({ day: d, ...(byDay.get(d) ?? { views: 0, visitors: 0 }) }));
}

/** Views per page path over the last 30 days (Blog Management's column), for the given paths. */
export async function viewsOfPaths(db: Db, paths: string[], now = new Date()): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  if (paths.length === 0) return found;
  const since = new Date(now.getTime() - 30 * 86_400_000);
  const rows = await db
    .select({ path: analyticsViews.path, views: count() })
    .from(analyticsViews)
    .where(and(inArray(analyticsViews.path, paths), gte(analyticsViews.minute, since)))
    .groupBy(analyticsViews.path);
  for (const r of rows) found.set(r.path, r.views);
  return found;
}

/** The dashboard's card: views per day for 7 days and the most viewed post of the week. */
export async function weekAtAGlance(
  db: Db,
  now = new Date(),
): Promise<{ series: { day: string; views: number }[]; topPost: { path: string; views: number } | null }> {
  const timeZone = getEnv().SITE_TIME_ZONE;
  const days = daysOf(dayIn(now, timeZone), 7);
  const { start } = await dayBounds(db, days[0] ?? "", timeZone);
  const series = await dailySeries(db, days, start, timeZone, null);
  const [top] = await db
    .select({ path: analyticsViews.path, views: count() })
    .from(analyticsViews)
    .where(and(gte(analyticsViews.minute, start), sql`${analyticsViews.path} ~ '^/7fs/[^/]+/[^/]+$'`))
    .groupBy(analyticsViews.path)
    .orderBy(sql`2 desc`)
    .limit(1);
  return { series: series.map((s) => ({ day: s.day, views: s.views })), topPost: top ?? null };
}

/** One table of a report as CSV. */
export function reportCsv(rows: TableRow[]): string {
  const cell = (value: string) => (/^[=+\-@]/.test(value) ? `'${value}` : value).replaceAll('"', '""');
  return ["value,views,visitors,visits", ...rows.map((r) => `"${cell(r.value)}",${r.views},${r.visitors},${r.visits}`)].join("\n") + "\n";
}
