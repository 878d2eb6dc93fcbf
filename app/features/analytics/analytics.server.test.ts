import type { IncomingMessage } from "node:http";
import { eq, sql } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { analyticsConversions, analyticsDaily, analyticsRolledDays, analyticsSalts, analyticsViews } from "~/server/db/schema.server";
import { getEnv } from "~/server/env.server";
import { describeEachDatabase } from "../../../tests/helpers/databases";
import { configureCollector, notePageView } from "./collector.server";
import { flushViews } from "./ingest.server";
import { PERIOD_TEXT } from "./report-query";
import { postStatistics, statisticsReport, viewsOfPaths, weekAtAGlance } from "./reports.server";
import { dayBounds, previousDay, rollUpDay } from "./rollup.server";
import { dayIn, deleteOldSalts, saltOf, visitorId } from "./visitor.server";

const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0";

function request(url: string, headers: Record<string, string>, address = "203.0.113.7", method = "GET"): IncomingMessage {
  return { method, url, headers: { host: "site.test", ...headers }, socket: { remoteAddress: address } } as unknown as IncomingMessage;
}

describeEachDatabase("visitor statistics", (ctx) => {
  beforeAll(() => configureCollector({ enabled: true, capPerMinute: 1_000 }));

  /** No views or rollups; the site's zone, now, today and a day's noon there. */
  async function emptyStatistics() {
    await ctx.db.delete(analyticsViews);
    await ctx.db.delete(analyticsDaily);
    await ctx.db.delete(analyticsRolledDays);
    const zone = getEnv().SITE_TIME_ZONE;
    const now = new Date();
    const noon = async (day: string) => new Date((await dayBounds(ctx.db, day, zone)).start.getTime() + 12 * 3600_000);
    return { zone, now, today: dayIn(now, zone), noon };
  }

  it("counts people, not bots, prefetches or HEAD; one visitor and one visit across pages", async () => {
    await ctx.db.delete(analyticsViews);
    notePageView(request("/?utm_source=LinkedIn&utm_campaign=spring", { "user-agent": CHROME, referer: "https://www.linkedin.com/feed/" }));
    notePageView(request("/7fs/Faith/a-post", { "user-agent": CHROME, referer: "http://site.test/" }, "203.0.113.99"));
    notePageView(request("/about", { "user-agent": FIREFOX }, "198.51.100.1"));
    notePageView(request("/", { "user-agent": "Googlebot/2.1 (+http://www.google.com/bot.html)" }));
    notePageView(request("/", { "user-agent": CHROME, "sec-purpose": "prefetch" }));
    notePageView(request("/", { "user-agent": CHROME }, "203.0.113.7", "HEAD"));
    notePageView(request("/", { "user-agent": CHROME, referer: "https://semalt.com/" }));
    expect(await flushViews(ctx.db)).toBe(3);
    const rows = await ctx.db
      .select({
        path: analyticsViews.path,
        visitor: analyticsViews.visitorId,
        visit: analyticsViews.visitId,
        referrer: analyticsViews.referrerHost,
        campaign: analyticsViews.utmCampaign,
        browser: analyticsViews.browser,
      })
      .from(analyticsViews)
      .orderBy(analyticsViews.path);
    expect(rows.map((r) => r.path)).toEqual(["/", "/7fs/Faith/a-post", "/about"]);
    const [home, post, about] = rows;
    // Same /24 network and browser: the same visitor, in one visit; the internal referrer is not stored.
    expect(post?.visitor).toBe(home?.visitor);
    expect(post?.visit).toBe(home?.visit);
    expect(post?.referrer).toBeNull();
    expect(home).toMatchObject({ referrer: "linkedin.com", campaign: "spring", browser: "Chrome" });
    expect(about?.visitor).not.toBe(home?.visitor);
  });

  it("stores identical views of a minute as one row with their count, and reports count each view", async () => {
    const { now, today } = await emptyStatistics();
    for (let i = 0; i < 5; i++) notePageView(request("/about", { "user-agent": CHROME, referer: "https://www.linkedin.com/feed/" }));
    notePageView(request("/about", { "user-agent": CHROME }));
    notePageView(request("/about", { "user-agent": FIREFOX }, "198.51.100.1"));
    expect(await flushViews(ctx.db)).toBe(7);
    const rows = await ctx.db
      .select({ views: analyticsViews.views, visit: analyticsViews.visitId, referrer: analyticsViews.referrerHost })
      .from(analyticsViews)
      .orderBy(analyticsViews.views);
    expect(rows.map((r) => r.views)).toEqual([1, 1, 5]);
    // The merged row and the later view of the same reader are one visit.
    expect(new Set(rows.map((r) => r.visit)).size).toBe(2);
    const admin = { id: "report-admin", role: "admin" as const };
    const report = await statisticsReport(ctx.db, admin, { period: "7d", filter: null, now });
    expect(report.totals).toMatchObject({ views: 7, visitors: 2, visits: 2 });
    expect(report.series.find((d) => d.day === today)).toEqual({ day: today, views: 7, visitors: 2 });
    expect(report.tables.page.find((r) => r.value === "/about")).toMatchObject({ views: 7 });
    await ctx.db.delete(analyticsViews);
  });

  it("one visitor within a day, not linkable across days; salts older than yesterday are deleted", async () => {
    const monday = await saltOf(ctx.db, "2026-03-02");
    const tuesday = await saltOf(ctx.db, "2026-03-03");
    expect(visitorId(monday, "site.test", "203.0.113.7", CHROME)).toBe(visitorId(monday, "site.test", "203.0.113.200", CHROME));
    expect(visitorId(monday, "site.test", "203.0.113.7", CHROME)).not.toBe(visitorId(tuesday, "site.test", "203.0.113.7", CHROME));
    expect(await deleteOldSalts(ctx.db, "2026-03-03")).toBeGreaterThanOrEqual(1);
    const left = await ctx.db.select({ day: analyticsSalts.day }).from(analyticsSalts).where(eq(analyticsSalts.day, "2026-03-02"));
    expect(left).toEqual([]);
  });

  it("rolls a day up in the site's zone, across midnight and DST, the same each time", async () => {
    const zone = "Europe/Berlin";
    // 29 March 2026: clocks go forward in Berlin, the day is 23 hours long.
    const { start, end } = await dayBounds(ctx.db, "2026-03-29", zone);
    expect(start.toISOString()).toBe("2026-03-28T23:00:00.000Z");
    expect(end.getTime() - start.getTime()).toBe(23 * 3600_000);
    expect(dayIn(new Date("2026-03-28T23:30:00Z"), zone)).toBe("2026-03-29");
    await ctx.db.delete(analyticsViews);
    const row = (minute: string, path: string, visitor: bigint, visit: bigint) => ({
      minute: new Date(minute),
      path,
      device: "desktop",
      browser: "Chrome",
      os: "Linux",
      visitorId: visitor,
      visitId: visit,
      referrerHost: "linkedin.com",
    });
    await ctx.db
      .insert(analyticsViews)
      .values([
        row("2026-03-28T22:59:00Z", "/before-midnight", 1n, 10n),
        row("2026-03-28T23:00:00Z", "/", 2n, 20n),
        row("2026-03-28T23:05:00Z", "/about", 2n, 20n),
        row("2026-03-29T21:59:00Z", "/contact", 3n, 30n),
        row("2026-03-29T22:00:00Z", "/next-day", 4n, 40n),
      ]);
    await rollUpDay(ctx.db, "2026-03-29", zone);
    const read = () =>
      ctx.db
        .select({
          dimension: analyticsDaily.dimension,
          value: analyticsDaily.value,
          views: analyticsDaily.views,
          visitors: analyticsDaily.visitors,
          visits: analyticsDaily.visits,
          bounces: analyticsDaily.bounces,
          median: analyticsDaily.medianVisitSeconds,
        })
        .from(analyticsDaily)
        .where(eq(analyticsDaily.day, "2026-03-29"))
        .orderBy(analyticsDaily.dimension, analyticsDaily.value);
    const first = await read();
    expect(first.find((r) => r.dimension === "total")).toEqual({
      dimension: "total",
      value: "",
      views: 3,
      visitors: 2,
      visits: 2,
      bounces: 1,
      median: 0,
    });
    expect(first.filter((r) => r.dimension === "page").map((r) => r.value)).toEqual(["/", "/about", "/contact"]);
    expect(first.find((r) => r.dimension === "referrer")).toMatchObject({ value: "linkedin.com", visits: 2, views: 3 });
    await rollUpDay(ctx.db, "2026-03-29", zone);
    expect(await read()).toEqual(first);
    const [{ count } = { count: 0 }] = await ctx.db
      .select({ count: sql<number>`count(*)::int` })
      .from(analyticsDaily)
      .where(eq(analyticsDaily.day, "2026-03-29"));
    expect(count).toBe(first.length);
  });

  it("a report over days reads their rollups (rolling up finished days first) plus today's raw views", async () => {
    const { zone, now, today, noon } = await emptyStatistics();
    const view = (minute: Date, path: string, visitor: bigint, referrerHost: string | null = null) => ({
      minute,
      path,
      device: "desktop",
      browser: "Chrome",
      os: "Linux",
      visitorId: visitor,
      visitId: visitor,
      referrerHost,
    });
    const threeDaysAgo = previousDay(today, 3);
    const todayView = new Date(Math.min(now.getTime(), (await dayBounds(ctx.db, today, zone)).start.getTime() + 60_000));
    await ctx.db
      .insert(analyticsViews)
      .values([
        view(await noon(threeDaysAgo), "/7fs/Faith/a-post", 1n, "linkedin.com"),
        view(await noon(threeDaysAgo), "/about", 1n, "linkedin.com"),
        view(await noon(previousDay(today, 10)), "/7fs/Faith/a-post", 2n),
        view(todayView, "/7fs/Faith/a-post", 3n, "news.ycombinator.com"),
      ]);
    const admin = { id: "report-admin", role: "admin" as const };
    const week = await statisticsReport(ctx.db, admin, { period: "7d", filter: null, now });
    expect(week.totals).toMatchObject({ views: 3, visitors: 2, visits: 2 });
    expect(week.previous).toMatchObject({ views: 1, visitors: 1 });
    expect(week.series.find((d) => d.day === threeDaysAgo)).toEqual({ day: threeDaysAgo, views: 2, visitors: 1 });
    expect(week.series.find((d) => d.day === today)).toEqual({ day: today, views: 1, visitors: 1 });
    expect(week.tables.referrer.map((r) => r.value).sort()).toEqual(["linkedin.com", "news.ycombinator.com"]);
    // The finished days were rolled up, today was not.
    const rolled = (await ctx.db.select({ day: analyticsRolledDays.day }).from(analyticsRolledDays)).map((r) => r.day);
    expect(rolled).toContain(threeDaysAgo);
    expect(rolled).not.toContain(today);
    // From now on the finished days come from their rollups alone: raw views of a rolled day are not read again.
    await ctx.db.delete(analyticsViews).where(sql`${analyticsViews.minute} < ${(await dayBounds(ctx.db, today, zone)).start}`);
    const again = await statisticsReport(ctx.db, admin, { period: "30d", filter: null, now });
    expect(again.totals).toMatchObject({ views: 4, visitors: 3, visits: 3 });
    expect(again.tables.page.find((r) => r.value === "/7fs/Faith/a-post")?.views).toBe(3);
    // A filtered report reads the finished days' filtered rollups and today's raw views.
    const filtered = await statisticsReport(ctx.db, admin, {
      period: "30d",
      filter: { dimension: "referrer", value: "news.ycombinator.com" },
      now,
    });
    expect(filtered.totals.views).toBe(1);
    expect((await viewsOfPaths(ctx.db, ["/7fs/Faith/a-post", "/nowhere"], now)).get("/7fs/Faith/a-post")).toBe(3);
    const glance = await weekAtAGlance(ctx.db, now);
    expect(glance.series.reduce((sum, d) => sum + d.views, 0)).toBe(3);
    expect(glance.topPost).toEqual({ path: "/7fs/Faith/a-post", views: 2 });
  });

  it("a custom period is whole days from one date to another; a bad one says why and shows 7 days", async () => {
    const { now, today, noon } = await emptyStatistics();
    const view = async (day: string, visitor: bigint) => ({
      minute: await noon(day),
      path: "/about",
      device: "desktop",
      browser: "Chrome",
      os: "Linux",
      visitorId: visitor,
      visitId: visitor,
    });
    await ctx.db
      .insert(analyticsViews)
      .values([await view(previousDay(today, 5), 1n), await view(previousDay(today, 4), 2n), await view(previousDay(today, 9), 3n)]);
    const admin = { id: "report-admin", role: "admin" as const };
    const custom = { from: previousDay(today, 6), to: previousDay(today, 3) };
    const report = await statisticsReport(ctx.db, admin, { period: "custom", custom, filter: null, now });
    expect(report).toMatchObject({ period: "custom", from: custom.from, to: custom.to, periodError: null });
    expect(report.series.map((d) => d.day)).toEqual([previousDay(today, 6), previousDay(today, 5), previousDay(today, 4), custom.to]);
    expect(report.totals.views).toBe(2);
    // The four days before it: only the view nine days ago.
    expect(report.previous.views).toBe(1);
    const refused = async (from: string, to: string) =>
      (await statisticsReport(ctx.db, admin, { period: "custom", custom: { from, to }, filter: null, now })).periodError;
    expect(await refused(custom.to, custom.from)).toBe(PERIOD_TEXT.reversed);
    expect(await refused("2026-02-30", today)).toBe(PERIOD_TEXT.invalid);
    expect(await refused("", today)).toBe(PERIOD_TEXT.missing);
    expect(await refused(today, previousDay(today, -1))).toBe(PERIOD_TEXT.future);
    expect(await refused(previousDay(today, 400), today)).toBe(PERIOD_TEXT.tooLong);
    const fallback = await statisticsReport(ctx.db, admin, { period: "custom", custom: { from: "x", to: "y" }, filter: null, now });
    expect(fallback).toMatchObject({ period: "7d", to: today, custom: { from: "x", to: "y" } });
    expect(fallback.series).toHaveLength(7);
  });

  it("conversions are counted per kind for each source and post, with the post's conversion rate and figures", async () => {
    await ctx.db.delete(analyticsViews);
    await ctx.db.delete(analyticsConversions);
    const zone = getEnv().SITE_TIME_ZONE;
    const now = new Date();
    const minute = new Date(Math.max((await dayBounds(ctx.db, dayIn(now, zone), zone)).start.getTime(), now.getTime() - 60_000));
    const post = "/7fs/Finance/a-simple-budget";
    const views = [1n, 2n, 3n, 4n].map((visitor) => ({
      minute,
      path: post,
      device: "desktop",
      browser: "Chrome",
      os: "Linux",
      visitorId: visitor,
      visitId: visitor,
    }));
    await ctx.db.insert(analyticsViews).values(views);
    const origin = { entryPath: post, referrerHost: "linkedin.com", utmSource: null, utmCampaign: "spring", lastPostPath: post };
    await ctx.db.insert(analyticsConversions).values([
      { kind: "contact", subjectId: crypto.randomUUID(), at: now, ...origin },
      { kind: "booking", subjectId: crypto.randomUUID(), at: now, ...origin },
      { kind: "booking", subjectId: crypto.randomUUID(), at: now, ...origin, referrerHost: null },
      // Not confirmed yet: not counted.
      { kind: "subscription", subjectId: crypto.randomUUID(), at: null, ...origin },
    ]);
    const admin = { id: "report-admin", role: "admin" as const };
    const report = await statisticsReport(ctx.db, admin, { period: "today", filter: null, now });
    expect(report.conversions.sort((a, b) => a.kind.localeCompare(b.kind))).toEqual([
      { kind: "booking", count: 2 },
      { kind: "contact", count: 1 },
    ]);
    expect(report.conversionsBy.referrer).toEqual([
      { value: "linkedin.com", total: 2, kinds: { contact: 1, subscription: 0, booking: 1 } },
      { value: "", total: 1, kinds: { contact: 0, subscription: 0, booking: 1 } },
    ]);
    expect(report.conversionsBy.post).toEqual([{ value: post, total: 3, kinds: { contact: 1, subscription: 0, booking: 2 }, visitors: 4 }]);
    expect(report.previousConversions).toEqual([]);
    // A filter on the referrer (or campaign, entry page, post) narrows the conversions too.
    const fromLinkedIn = await statisticsReport(ctx.db, admin, {
      period: "today",
      filter: { dimension: "referrer", value: "linkedin.com" },
      now,
    });
    expect(fromLinkedIn.conversions.sort((a, b) => a.kind.localeCompare(b.kind))).toEqual([
      { kind: "booking", count: 1 },
      { kind: "contact", count: 1 },
    ]);
    const onDesktops = await statisticsReport(ctx.db, admin, { period: "today", filter: { dimension: "device", value: "desktop" }, now });
    expect(onDesktops.conversions.reduce((sum, c) => sum + c.count, 0)).toBe(3);
    expect(await postStatistics(ctx.db, post, now)).toEqual({
      views: 4,
      visitors: 4,
      conversions: { contact: 1, subscription: 0, booking: 2 },
    });
  });

  it("the report stores this instance's noted views first", async () => {
    await ctx.db.delete(analyticsViews);
    notePageView(request("/projects", { "user-agent": FIREFOX }, "192.0.2.10"));
    const admin = { id: "report-admin", role: "admin" as const };
    const report = await statisticsReport(ctx.db, admin, { period: "today", filter: null });
    expect(report.tables.page).toEqual([{ value: "/projects", views: 1, visitors: 1, visits: 1 }]);
  });
});
