// Statistics reports read rollups (analytics_daily, and analytics_daily_filtered for a filter) for
// finished days and raw views for today. This suite seeds three weeks of views and compares every
// report — unfiltered and filtered on each dimension, over today, 7 days, 30 days and 12 months —
// with the same figures worked out the straightforward way, in plain code from the seeded rows:
// per day, a filter keeps a page's views or the visits whose first view has the value; visits,
// visitors, bounces and the median visit length are counted from those views.
import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { statisticsReport, type Report, type TableRow, type Totals } from "~/features/analytics/reports.server";
import { foldDay } from "~/features/analytics/fold.server";
import {
  dayBounds,
  daysOfMonth,
  previousDay,
  rollUpDay,
  runAnalyticsMaintenance,
  sumRolledMonths,
} from "~/features/analytics/rollup.server";
import { dayIn } from "~/features/analytics/visitor.server";
import { DIMENSIONS, type Dimension } from "~/features/analytics/dimensions";
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
import { describeEachDatabase } from "../helpers/databases";
import { bookingSuiteEnv } from "../helpers/booking";

type ViewRow = typeof analyticsViews.$inferInsert & { views: number; minute: Date };

/** A small deterministic generator, so every run (and both databases) sees the same views. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PATHS = ["/", "/about", "/7fs/Faith/a-post", "/7fs/Finance/a-budget", "/projects", "/contact", "/7fs/Faith/b-post", "/links"];
const REFERRERS = [null, null, "linkedin.com", "www.google.com", "news.ycombinator.com"];
const CAMPAIGNS = [null, null, null, "spring", "autumn"];
const COUNTRIES = ["DE", "DE", "US", "FR", null];
const CLIENTS = [
  { device: "desktop", browser: "Chrome", os: "Windows" },
  { device: "desktop", browser: "Firefox", os: "Linux" },
  { device: "mobile", browser: "Safari", os: "iOS" },
  { device: "tablet", browser: "Chrome", os: "Android" },
];

/** A day's visits: some visitors come twice, later views sometimes bring another referrer or campaign. */
function viewsOfDay(next: () => number, dayStart: Date, dayIndex: number): ViewRow[] {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  const rows: ViewRow[] = [];
  for (let visitor = 0; visitor < 18; visitor++) {
    const visitorId = BigInt(dayIndex * 1000 + visitor + 1);
    const client = pick(CLIENTS);
    const country = pick(COUNTRIES);
    const visits = next() < 0.3 ? 2 : 1;
    // Visits start at least two hours apart, between 01:00 and 17:00 and last at most 1 h 40 min: one day each.
    let start = dayStart.getTime() + 3600_000 + Math.floor(next() * 6) * 3600_000;
    for (let visit = 0; visit < visits; visit++) {
      const visitId = visitorId * 10n + BigInt(visit);
      const length = 1 + Math.floor(next() * 4);
      let at = start;
      for (let view = 0; view < length; view++) {
        rows.push({
          minute: new Date(at - (at % 60_000)),
          path: pick(PATHS),
          referrerHost: view === 0 || next() < 0.15 ? pick(REFERRERS) : null,
          utmCampaign: view === 0 || next() < 0.1 ? pick(CAMPAIGNS) : null,
          country,
          ...client,
          visitorId,
          visitId,
          views: next() < 0.2 ? 2 : 1,
        });
        at += (1 + Math.floor(next() * 25)) * 60_000;
      }
      start += 2 * 3600_000 + Math.floor(next() * 4) * 3600_000;
    }
  }
  return rows;
}

interface Figures extends Totals {
  /** The sum of each day's median times its visits (medians of days are combined weighted by visits). */
  medianWeight: number;
}

const FIGURE_KEYS = ["views", "visitors", "visits", "bounces"] as const;
const VISIT_VALUE: Record<Exclude<Dimension, "page">, (r: ViewRow) => string> = {
  entry: (r) => r.path,
  referrer: (r) => r.referrerHost ?? "",
  campaign: (r) => r.utmCampaign ?? "",
  country: (r) => r.country ?? "",
  device: (r) => r.device,
  browser: (r) => r.browser,
  os: (r) => r.os,
};

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}

/** One day's report rows (key "dimension\nvalue"), from that day's views, the straightforward way. */
function dayFigures(dayRows: ViewRow[], filter: Report["filter"]): Map<string, Figures> {
  const byVisit = (rows: ViewRow[]) =>
    [...groupBy(rows, (r) => String(r.visitId)).values()].map((v) => v.sort((a, b) => +a.minute - +b.minute));
  let kept = dayRows;
  if (filter) {
    const { dimension, value } = filter;
    if (dimension === "page") kept = dayRows.filter((r) => r.path === value);
    else kept = byVisit(dayRows).flatMap((v) => (VISIT_VALUE[dimension](v[0]!) === value ? v : []));
  }
  const visits = byVisit(kept).map((v) => ({
    views: v.reduce((sum, r) => sum + r.views, 0),
    visitor: String(v[0]!.visitorId),
    seconds: (+v[v.length - 1]!.minute - +v[0]!.minute) / 1000,
    first: v[0]!,
  }));
  const out = new Map<string, Figures>();
  const put = (key: string, f: Omit<Figures, "medianWeight">) => out.set(key, { ...f, medianWeight: f.medianVisitSeconds * f.visits });
  const ofVisits = (list: typeof visits) => ({
    views: list.reduce((sum, v) => sum + v.views, 0),
    visitors: new Set(list.map((v) => v.visitor)).size,
    visits: list.length,
    bounces: list.filter((v) => v.views === 1).length,
  });
  if (visits.length > 0) {
    // percentile_disc(0.5): the first length at or past half of the visits.
    const lengths = visits.map((v) => v.seconds).sort((a, b) => a - b);
    put("total\n", { ...ofVisits(visits), medianVisitSeconds: lengths[Math.ceil(lengths.length / 2) - 1]! });
  }
  for (const [path, rows] of groupBy(kept, (r) => r.path)) {
    const visitsOfPage = new Set(rows.map((r) => String(r.visitId))).size;
    put(`page\n${path}`, {
      views: rows.reduce((sum, r) => sum + r.views, 0),
      visitors: new Set(rows.map((r) => String(r.visitorId))).size,
      visits: visitsOfPage,
      bounces: 0,
      medianVisitSeconds: 0,
    });
  }
  for (const [dimension, valueOf] of Object.entries(VISIT_VALUE)) {
    for (const [value, list] of groupBy(visits, (v) => valueOf(v.first))) {
      put(`${dimension}\n${value}`, { ...ofVisits(list), medianVisitSeconds: 0 });
    }
  }
  return out;
}

/** A period's report figures: the sum of its days'. */
function expectedReport(all: ViewRow[], days: string[], zone: string, filter: Report["filter"]) {
  const rowsByDay = groupBy(all, (r) => dayIn(r.minute, zone));
  const summed = new Map<string, Figures>();
  const series = days.map((day) => {
    const figures = dayFigures(rowsByDay.get(day) ?? [], filter);
    for (const [key, f] of figures) {
      const known = summed.get(key) ?? { views: 0, visitors: 0, visits: 0, bounces: 0, medianVisitSeconds: 0, medianWeight: 0 };
      for (const k of FIGURE_KEYS) known[k] += f[k];
      known.medianWeight += f.medianWeight;
      summed.set(key, known);
    }
    const total = figures.get("total\n");
    return { day, views: total?.views ?? 0, visitors: total?.visitors ?? 0 };
  });
  const total = summed.get("total\n");
  const totals = {
    views: total?.views ?? 0,
    visitors: total?.visitors ?? 0,
    visits: total?.visits ?? 0,
    bounces: total?.bounces ?? 0,
    medianVisitSeconds: total && total.visits > 0 ? total.medianWeight / total.visits : 0,
  };
  const tables = Object.fromEntries(DIMENSIONS.map((d) => [d, [] as TableRow[]])) as Record<Dimension, TableRow[]>;
  for (const [key, f] of summed) {
    const [dimension, value = ""] = key.split("\n") as [Dimension | "total", string];
    if (dimension !== "total") tables[dimension].push({ value, views: f.views, visitors: f.visitors, visits: f.visits });
  }
  return { totals, series, tables };
}

const byValue = (rows: TableRow[]) => [...rows].sort((a, b) => (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));

/**
 * Report totals against expected ones. A median over several days is the visit-weighted mean of the
 * days' medians, rounded where parts are combined: within a second and a half of the exact mean.
 */
function expectTotals(actual: Totals, expected: Totals, label: string) {
  const { medianVisitSeconds, ...figures } = actual;
  const { medianVisitSeconds: expectedMedian, ...expectedFigures } = expected;
  expect(figures, label).toEqual(expectedFigures);
  expect(Math.abs(medianVisitSeconds - expectedMedian), `${label}: median ${medianVisitSeconds} vs ${expectedMedian}`).toBeLessThan(1.5);
}

describe("statistics reports from rollups equal the straightforward count", () => {
  bookingSuiteEnv();

  describeEachDatabase("reports", (ctx) => {
    const admin = { id: "report-admin", role: "admin" as const };
    let zone = "";
    let now = new Date();
    let today = "";
    let keepFrom = "";
    const seeded: ViewRow[] = [];

    beforeAll(async () => {
      zone = getEnv().SITE_TIME_ZONE;
      // Today is the day clocks go forward in Berlin (23 hours); it is 21 hours in.
      today = "2026-03-29";
      now = new Date((await dayBounds(ctx.db, today, zone)).start.getTime() + 21 * 3600_000);
      keepFrom = previousDay(today, getEnv().ANALYTICS_RAW_DAYS);
      const next = random(26);
      // Today and the twenty days before it, and one day 35 days ago: past the raw retention, so the
      // maintenance keeps only its unfiltered rollup.
      for (const ago of [35, ...Array.from({ length: 21 }, (_, i) => 20 - i)]) {
        const day = previousDay(today, ago);
        seeded.push(...viewsOfDay(next, (await dayBounds(ctx.db, day, zone)).start, ago));
      }
      for (let from = 0; from < seeded.length; from += 500) await ctx.db.insert(analyticsViews).values(seeded.slice(from, from + 500));
      await rollUpDay(ctx.db, previousDay(today, 35), zone);
      await runAnalyticsMaintenance(ctx.db, now);
      // A day rolled up before filtered rollups existed: a filtered report rebuilds it.
      const older = previousDay(today, 3);
      await ctx.db.delete(analyticsDailyFiltered).where(eq(analyticsDailyFiltered.day, older));
      await ctx.db.update(analyticsRolledDays).set({ filtered: false }).where(eq(analyticsRolledDays.day, older));
    });

    it("the maintenance kept unfiltered rollups only past the raw retention, filtered ones within it", async () => {
      const old = previousDay(today, 35);
      const count = async (table: typeof analyticsDaily | typeof analyticsDailyFiltered) =>
        (
          await ctx.db
            .select({ n: sql<number>`count(*)::int` })
            .from(table)
            .where(eq(table.day, old))
        )[0]?.n;
      expect(await count(analyticsDaily)).toBeGreaterThan(0);
      expect(await count(analyticsDailyFiltered)).toBe(0);
      const [raw] = await ctx.db.select({ n: sql<number>`count(*)::int` }).from(analyticsViews);
      expect(raw?.n).toBe(seeded.filter((r) => dayIn(r.minute, zone) >= keepFrom).length);
    });

    const filters: Report["filter"][] = [
      null,
      { dimension: "page", value: "/about" },
      { dimension: "page", value: "/7fs/Faith/a-post" },
      { dimension: "entry", value: "/" },
      { dimension: "entry", value: "/nowhere" },
      { dimension: "referrer", value: "linkedin.com" },
      { dimension: "referrer", value: "" },
      { dimension: "campaign", value: "spring" },
      { dimension: "campaign", value: "" },
      { dimension: "country", value: "DE" },
      { dimension: "country", value: "" },
      { dimension: "device", value: "mobile" },
      { dimension: "browser", value: "Firefox" },
      { dimension: "os", value: "Linux" },
    ];
    /** Every report of the period, unfiltered and filtered, against the straightforward figures. */
    async function expectStraightforwardReports(period: "today" | "7d" | "30d" | "12m", note = "") {
      {
        const length = { today: 1, "7d": 7, "30d": 30, "12m": 365 }[period];
        const days = Array.from({ length }, (_, i) => previousDay(today, length - 1 - i));
        const previousDays = days.map((d) => previousDay(d, length));
        let nonEmpty = 0;
        for (const filter of filters) {
          const label = `${period}${note} ${filter ? `${filter.dimension}=${filter.value}` : "unfiltered"}`;
          // A filtered report covers the days whose raw views are kept; the unfiltered one every rolled-up day.
          const rows = filter ? seeded.filter((r) => dayIn(r.minute, zone) >= keepFrom) : seeded;
          const expected = expectedReport(rows, days, zone, filter);
          const previous = expectedReport(rows, previousDays, zone, filter);
          const report = await statisticsReport(ctx.db, admin, { period, filter, now });
          expectTotals(report.totals, expected.totals, label);
          expectTotals(report.previous, previous.totals, `${label} (previous)`);
          expect(report.series, label).toEqual(expected.series);
          for (const dimension of DIMENSIONS) {
            expect(byValue(report.tables[dimension]), `${label} ${dimension}`).toEqual(byValue(expected.tables[dimension]));
          }
          if (report.totals.views > 0) nonEmpty++;
        }
        // The comparison is not vacuous: all but the filter on a page nobody entered at have views.
        expect(nonEmpty).toBe(filters.length - 1);
      }
    }

    for (const period of ["today", "7d", "30d", "12m"] as const) {
      it(`${period}: every report, unfiltered and filtered, has the straightforward figures`, async () => {
        await expectStraightforwardReports(period);
      });
    }

    it("today folded part-way (fold.server.ts): every report still has the straightforward figures", async () => {
      const start = (await dayBounds(ctx.db, today, zone)).start.getTime();
      const todays = seeded.filter((r) => dayIn(r.minute, zone) === today);
      const partial = () =>
        ctx.db
          .select()
          .from(analyticsPartial)
          .where(eq(analyticsPartial.day, today))
          .orderBy(analyticsPartial.filterDimension, analyticsPartial.filterValue, analyticsPartial.dimension, analyticsPartial.value);
      let spanning = 0;
      let returning = 0;
      // Folds up to odd instants: some visits have views on both sides of a fold, some visitors a visit on each side.
      for (const hours of [3.1, 5.55, 9.3, 12.85, 16.2]) {
        const until = new Date(start + hours * 3600_000);
        // Two instances folding at once: one waits for the day's lock, then finds the fold done. One
        // fold in steps of a few views (a busy day's steps are bounded by views, not only by time).
        const stepViews = hours === 9.3 ? 3 : undefined;
        await Promise.all([
          foldDay(ctx.db, today, until, { timeZone: zone, stepViews }),
          foldDay(ctx.db, today, until, { timeZone: zone }),
        ]);
        const [state] = await ctx.db.select().from(analyticsPartialDays).where(eq(analyticsPartialDays.day, today));
        expect(state?.foldedUntil.getTime()).toBe(until.getTime());
        const sides = (key: (r: ViewRow) => string) =>
          [...groupBy(todays, key).values()].filter((rows) => rows.some((r) => r.minute < until) && rows.some((r) => r.minute >= until))
            .length;
        spanning += sides((r) => String(r.visitId));
        returning += sides((r) => String(r.visitorId)) - sides((r) => String(r.visitId));
        // Folding again to the same instant changes nothing.
        const before = await partial();
        await foldDay(ctx.db, today, until, { timeZone: zone });
        expect(await partial()).toEqual(before);
        for (const period of ["today", "7d"] as const) await expectStraightforwardReports(period, ` folded to +${hours} h`);
      }
      expect(spanning).toBeGreaterThan(0);
      expect(returning).toBeGreaterThan(0);
      // Folded whole (past every view), a report reads the folds alone.
      await foldDay(ctx.db, today, now, { timeZone: zone });
      expect((await partial()).length).toBeGreaterThan(0);
      await expectStraightforwardReports("today", " folded whole");
      // A view stored after its minute was folded (an instance that stalled): the day's rollup groups
      // the raw views, not the folds, and counts it.
      const late: ViewRow = { ...todays[0]!, visitorId: 777_777n, visitId: 7_777_770n, path: "/late" };
      await ctx.db.insert(analyticsViews).values(late);
      seeded.push(late);
      expect(await rollUpDay(ctx.db, today, zone)).toBe("views");
      await expectStraightforwardReports("today", " rolled up with a late view");
      const rollupRows = async () => ({
        daily: await ctx.db
          .select()
          .from(analyticsDaily)
          .where(eq(analyticsDaily.day, today))
          .orderBy(analyticsDaily.dimension, analyticsDaily.value),
        filtered: await ctx.db
          .select()
          .from(analyticsDailyFiltered)
          .where(eq(analyticsDailyFiltered.day, today))
          .orderBy(
            analyticsDailyFiltered.filterDimension,
            analyticsDailyFiltered.filterValue,
            analyticsDailyFiltered.dimension,
            analyticsDailyFiltered.value,
          ),
      });
      const fromViews = await rollupRows();
      expect(fromViews.filtered.length).toBeGreaterThan(fromViews.daily.length);
      // Folded again to the day's end, every view in the folds: the rollup copies the folds, the same rows.
      await ctx.db.delete(analyticsRolledDays).where(eq(analyticsRolledDays.day, today));
      await foldDay(ctx.db, today, (await dayBounds(ctx.db, today, zone)).end, { timeZone: zone });
      expect(await rollUpDay(ctx.db, today, zone)).toBe("folds");
      expect(await rollupRows()).toEqual(fromViews);
      // The day's rollup replaced its folds, and a rolled-up day is not folded again.
      expect(await partial()).toEqual([]);
      await foldDay(ctx.db, today, now, { timeZone: zone });
      expect(await partial()).toEqual([]);
      await expectStraightforwardReports("today", " rolled up");
      await ctx.db.delete(analyticsDaily).where(eq(analyticsDaily.day, today));
      await ctx.db.delete(analyticsDailyFiltered).where(eq(analyticsDailyFiltered.day, today));
      await ctx.db.delete(analyticsRolledDays).where(eq(analyticsRolledDays.day, today));
    });

    it("a whole rolled-up month is read from its sums (analytics_monthly), which always equal its days'", async () => {
      const month = "2026-02";
      const m = analyticsMonthly;
      const sums = () =>
        ctx.db
          .select({ dimension: m.dimension, value: m.value, views: m.views, visitors: m.visitors, visits: m.visits, bounces: m.bounces })
          .from(m)
          .where(eq(m.month, month))
          .orderBy(m.dimension, m.value);
      const daysSums = async () => {
        const d = analyticsDaily;
        return ctx.db
          .select({
            dimension: d.dimension,
            value: d.value,
            views: sql<number>`sum(${d.views})::int`,
            visitors: sql<number>`sum(${d.visitors})::int`,
            visits: sql<number>`sum(${d.visits})::int`,
            bounces: sql<number>`sum(${d.bounces})::int`,
          })
          .from(d)
          .where(sql`${d.day} like ${`${month}-%`}`)
          .groupBy(d.dimension, d.value)
          .orderBy(d.dimension, d.value);
      };
      // February has three rolled-up days (the 22nd, past the raw retention, and the last two): no sums.
      const rolled = new Set((await ctx.db.select({ day: analyticsRolledDays.day }).from(analyticsRolledDays)).map((r) => r.day));
      const missing = daysOfMonth(month).filter((d) => !rolled.has(d));
      expect(missing).toHaveLength(25);
      expect(await sums()).toEqual([]);
      // Its other days (without views) rolled up, two at once as two instances would: the last one sums the month.
      const [first, second, ...rest] = missing;
      for (const day of rest) await rollUpDay(ctx.db, day, zone);
      expect(await sums()).toEqual([]);
      await Promise.all([rollUpDay(ctx.db, first!, zone), rollUpDay(ctx.db, second!, zone)]);
      const summed = await sums();
      expect(summed.length).toBeGreaterThan(10);
      expect(summed).toEqual(await daysSums());
      await expectStraightforwardReports("12m", " with February summed");
      // The 12-month report reads the sums, not the days.
      const read = async () => (await statisticsReport(ctx.db, admin, { period: "12m", filter: null, now })).totals.views;
      const views = await read();
      await ctx.db
        .update(m)
        .set({ views: sql`${m.views} + 7` })
        .where(and(eq(m.month, month), eq(m.dimension, "total")));
      expect(await read()).toBe(views + 7);
      // Summed again when lost (a month rolled up before the sums existed), and only then.
      await ctx.db.delete(m).where(eq(m.month, month));
      expect(await sumRolledMonths(ctx.db)).toEqual([month]);
      expect(await sumRolledMonths(ctx.db)).toEqual([]);
      expect(await sums()).toEqual(summed);
      // A day of it rolled up again with a view more: the sums follow in the same transaction.
      const noon = new Date((await dayBounds(ctx.db, "2026-02-27", zone)).start.getTime() + 12 * 3600_000);
      const extra: ViewRow = { ...seeded[0]!, minute: noon, visitorId: 999_999n, visitId: 9_999_990n };
      await ctx.db.insert(analyticsViews).values(extra);
      await rollUpDay(ctx.db, "2026-02-27", zone);
      const after = await sums();
      expect(after.find((r) => r.dimension === "total")?.views).toBe(summed.find((r) => r.dimension === "total")!.views + extra.views);
      expect(after).toEqual(await daysSums());
      // A month with a day no longer rolled up has no sums, and its reports read its days.
      await ctx.db.delete(analyticsDaily).where(eq(analyticsDaily.day, first!));
      await ctx.db.delete(analyticsRolledDays).where(eq(analyticsRolledDays.day, first!));
      await rollUpDay(ctx.db, "2026-02-27", zone);
      expect(await sums()).toEqual([]);
      await ctx.db.delete(analyticsViews).where(eq(analyticsViews.visitorId, extra.visitorId));
      await rollUpDay(ctx.db, "2026-02-27", zone);
      await expectStraightforwardReports("12m", " with February not summed");
    });

    it("a filter on a visit's value counts the visits of that table row, whatever their later views brought", async () => {
      const report = await statisticsReport(ctx.db, admin, { period: "30d", filter: null, now });
      for (const dimension of ["referrer", "campaign", "entry"] as const) {
        for (const row of report.tables[dimension].slice(0, 3)) {
          const filtered = await statisticsReport(ctx.db, admin, { period: "30d", filter: { dimension, value: row.value }, now });
          expect(filtered.totals, `${dimension}=${row.value}`).toMatchObject({
            visits: row.visits,
            views: row.views,
            visitors: row.visitors,
          });
        }
      }
    });
  });
});
