import { sql, type SQL } from "drizzle-orm";

/**
 * The one home of how raw views add up (the daily rollup and the live reports both use it): views
 * are grouped into visits first; a visit's entry page, referrer, campaign, country and client are
 * those of its first view, and its length runs from its first view's minute to its last's.
 */
export { DIMENSIONS, type Dimension } from "./dimensions";
import type { Dimension } from "./dimensions";

/** The raw views between two instants, as a CTE body, narrowed by an optional condition on the views. */
export function viewsIn(start: Date, end: Date, where?: SQL): SQL {
  return sql`select * from analytics_views where minute >= ${start.toISOString()}::timestamptz and minute < ${end.toISOString()}::timestamptz${where ? sql` and ${where}` : sql``}`;
}

/** Per visit: its views, visitor, length and first view's attributes (CTE body over `v`). */
const VISITS = sql`select visit_id, min(visitor_id) as visitor_id, sum(views)::int as views,
  extract(epoch from max(minute) - min(minute))::int as seconds,
  (array_agg(path order by minute))[1] as entry,
  (array_agg(coalesce(referrer_host, '') order by minute))[1] as referrer,
  (array_agg(coalesce(utm_campaign, '') order by minute))[1] as campaign,
  (array_agg(coalesce(country, '') order by minute))[1] as country,
  (array_agg(device order by minute))[1] as device,
  (array_agg(browser order by minute))[1] as browser,
  (array_agg(os order by minute))[1] as os
  from v group by visit_id`;

/**
 * Rows (dimension, value, views, visitors, visits, bounces, median_visit_seconds) for `views`: a
 * 'total' row and one per value of every dimension. Pages count views; every other dimension counts
 * whole visits.
 */
export function aggregateSql(views: SQL): SQL {
  const byVisit = (dimension: Dimension, column: string) =>
    sql`select ${dimension}::text as dimension, ${sql.raw(column)}::text as value, sum(views)::int as views,
      count(distinct visitor_id)::int as visitors, count(*)::int as visits, (count(*) filter (where views = 1))::int as bounces,
      0 as median_visit_seconds from visits group by ${sql.raw(column)}`;
  return sql`with v as (${views}), visits as (${VISITS})
    select 'total'::text as dimension, ''::text as value, coalesce(sum(views), 0)::int as views,
      count(distinct visitor_id)::int as visitors, count(*)::int as visits, (count(*) filter (where views = 1))::int as bounces,
      coalesce(percentile_disc(0.5) within group (order by seconds), 0)::int as median_visit_seconds from visits
    union all
    select 'page', path, sum(views)::int, count(distinct visitor_id)::int, count(distinct visit_id)::int, 0, 0 from v group by path
    union all ${byVisit("entry", "entry")}
    union all ${byVisit("referrer", "referrer")}
    union all ${byVisit("campaign", "campaign")}
    union all ${byVisit("country", "country")}
    union all ${byVisit("device", "device")}
    union all ${byVisit("browser", "browser")}
    union all ${byVisit("os", "os")}`;
}

export interface AggregateRow {
  dimension: string;
  value: string;
  views: number;
  visitors: number;
  visits: number;
  bounces: number;
  median_visit_seconds: number;
}

/** The UTC instant a calendar day (YYYY-MM-DD) starts in `timeZone`, in SQL (PostgreSQL knows the zone's DST rules). */
export function dayStartSql(day: string, timeZone: string): SQL {
  return sql`(${day}::date::timestamp at time zone ${timeZone})`;
}
