import { sql, type SQL } from "drizzle-orm";

/**
 * The one home of how raw views add up (the daily rollups and the live reports all use it): views
 * are grouped into visits first; a visit's entry page, referrer, campaign, country and client are
 * those of its first view, and its length runs from its first view's minute to its last's.
 */
export { DIMENSIONS, type Dimension } from "./dimensions";
import type { Dimension } from "./dimensions";

/** The raw views between two instants, as a CTE body, narrowed by an optional condition on the views. */
export function viewsIn(start: Date, end: Date, where?: SQL): SQL {
  return sql`select * from analytics_views where minute >= ${start.toISOString()}::timestamptz and minute < ${end.toISOString()}::timestamptz${where ? sql` and ${where}` : sql``}`;
}

/**
 * A visit's first view: the earliest minute; within one minute the view that brought a referrer or
 * a campaign, then by page, so the same views always give the same first view (whatever the plan).
 */
const FIRST_VIEW_ORDER = "minute, referrer_host nulls last, utm_campaign nulls last, path, country nulls last";

/** A visit's value in each dimension that belongs to the whole visit (its first view's). */
const VISIT_COLUMNS: Record<Exclude<Dimension, "page">, string> = {
  entry: "path",
  referrer: "coalesce(referrer_host, '')",
  campaign: "coalesce(utm_campaign, '')",
  country: "coalesce(country, '')",
  device: "device",
  browser: "browser",
  os: "os",
};

/**
 * The views a report shows, each with `f`, the filter value it counts under:
 * - no filter: every view, f = '' (the unfiltered report);
 * - a page: the views of that page, f = its path (a page filter counts the page's views, and visits
 *   are made of those views only);
 * - any other dimension: every view of the visits whose value (their first view's) it is, f = that value.
 * With `value` only the views counted under that value; without it, the views of every value (a
 * day's filtered rollup, grouped by f).
 */
export function keyedViews(views: SQL, filter: { dimension: Dimension; value?: string } | null): SQL {
  if (!filter) return sql`select *, ''::text as f from (${views}) as b`;
  const { dimension, value } = filter;
  if (dimension === "page") {
    return sql`select *, path as f from (${views}) as b${value === undefined ? sql`` : sql` where path = ${value}`}`;
  }
  return sql`select b.*, k.f from (${views}) as b join (select distinct on (visit_id) visit_id, ${sql.raw(VISIT_COLUMNS[dimension])} as f
    from (${views}) as e order by visit_id, ${sql.raw(FIRST_VIEW_ORDER)}) as k using (visit_id)${value === undefined ? sql`` : sql` where k.f = ${value}`}`;
}

/** Per filter value and visit: its views, visitor, length and first view's attributes (CTE body over `v`). */
const VISITS = sql`select f, visit_id, a.visitor_id, a.views, a.seconds, entry, referrer, campaign, country, device, browser, os
  from (select f, visit_id, min(visitor_id) as visitor_id, sum(views)::int as views,
    extract(epoch from max(minute) - min(minute))::int as seconds from v group by f, visit_id) as a
  join (select distinct on (f, visit_id) f, visit_id, path as entry, coalesce(referrer_host, '') as referrer,
    coalesce(utm_campaign, '') as campaign, coalesce(country, '') as country, device, browser, os
    from v order by f, visit_id, ${sql.raw(FIRST_VIEW_ORDER)}) as firsts using (f, visit_id)`;

/**
 * Rows (filter_value, dimension, value, views, visitors, visits, bounces, median_visit_seconds) for
 * `keyed` (keyedViews): per filter value a 'total' row and one per value of every dimension. Pages
 * count views; every other dimension counts whole visits. A filter value without views has no rows.
 * With `lengths`, also a 'length' row per visit length (value: the seconds, visits: how many), from
 * which a median can be worked out again once such rows are added up (the day so far's folds).
 */
export function aggregateSql(keyed: SQL, options: { lengths?: boolean } = {}): SQL {
  const byVisit = (dimension: Dimension, column: string) =>
    sql`select f, ${dimension}::text as dimension, ${sql.raw(column)}::text as value, sum(views)::int as views,
      count(distinct visitor_id)::int as visitors, count(*)::int as visits, (count(*) filter (where views = 1))::int as bounces,
      0 as median_visit_seconds from visits group by f, ${sql.raw(column)}`;
  return sql`with v as (${keyed}), visits as (${VISITS})
    select f as filter_value, 'total'::text as dimension, ''::text as value, coalesce(sum(views), 0)::int as views,
      count(distinct visitor_id)::int as visitors, count(*)::int as visits, (count(*) filter (where views = 1))::int as bounces,
      coalesce(percentile_disc(0.5) within group (order by seconds), 0)::int as median_visit_seconds from visits group by f
    union all
    select f, 'page', path, sum(views)::int, count(distinct visitor_id)::int, count(distinct visit_id)::int, 0, 0 from v group by f, path
    union all ${byVisit("entry", "entry")}
    union all ${byVisit("referrer", "referrer")}
    union all ${byVisit("campaign", "campaign")}
    union all ${byVisit("country", "country")}
    union all ${byVisit("device", "device")}
    union all ${byVisit("browser", "browser")}
    union all ${byVisit("os", "os")}${
      options.lengths
        ? sql`
    union all select f, 'length', seconds::text, 0, 0, count(*)::int, 0, 0 from visits group by f, seconds`
        : sql``
    }`;
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
