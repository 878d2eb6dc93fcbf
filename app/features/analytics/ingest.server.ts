import { and, desc, gte, inArray, sql } from "drizzle-orm";
import { isbot } from "isbot";
import proxyaddr from "proxy-addr";
import type { Db } from "~/server/db/client.server";
import { analyticsDropped, analyticsViews } from "~/server/db/schema.server";
import { getEnv } from "~/server/env.server";
import { logger } from "~/server/logger.server";
import { readAnalyticsSettings } from "./analytics-settings.server";
import { campaignOf, classifyClient, classifyReferrer, storedPath, type ClientClass } from "./classify";
import { takePendingViews, type PendingView } from "./collector.server";
import { countryOfAddress } from "./geo.server";
import { dayIn, newVisitId, saltOf, visitorId } from "./visitor.server";

/** A visit ends after this long without a view. */
export const VISIT_GAP_MS = 30 * 60_000;
const INSERT_CHUNK = 500;

type ViewRow = typeof analyticsViews.$inferInsert;

/** Browser classes per User-Agent: the same few hundred strings come again and again. */
const clientClasses = new Map<string, ClientClass>();
function clientClassOf(userAgent: string): ClientClass {
  let known = clientClasses.get(userAgent);
  if (!known) {
    if (clientClasses.size >= 5_000) clientClasses.clear();
    known = classifyClient(userAgent);
    clientClasses.set(userAgent, known);
  }
  return known;
}

const bots = new Map<string, boolean>();
function isBot(userAgent: string): boolean {
  let known = bots.get(userAgent);
  if (known === undefined) {
    if (bots.size >= 5_000) bots.clear();
    known = isbot(userAgent);
    bots.set(userAgent, known);
  }
  return known;
}

type Trust = (address: string, hop: number) => boolean;
let trust: { setting: unknown; fn: Trust } | undefined;

/** The client address as Express works it out with TRUST_PROXY (server/request-guards.ts). */
function clientAddressOf(view: Pick<PendingView, "remote" | "forwarded">): string {
  const setting = getEnv().TRUST_PROXY;
  if (trust?.setting !== setting) {
    const fn: Trust =
      setting === false ? () => false : typeof setting === "number" ? (_address, hop) => hop < setting : proxyaddr.compile(setting);
    trust = { setting, fn };
  }
  const request = {
    headers: view.forwarded === undefined ? {} : { "x-forwarded-for": view.forwarded },
    connection: { remoteAddress: view.remote },
    socket: { remoteAddress: view.remote },
  };
  return proxyaddr(request as unknown as Parameters<typeof proxyaddr>[0], trust.fn);
}

/** Last view's visit per visitor on this instance (a visitor seen on another instance is looked up). */
const recentVisits = new Map<bigint, { visitId: bigint; at: number }>();

/** Each visitor's latest visit in the last 30 minutes, from the database (views of other instances included). */
async function latestVisits(db: Db, visitorIds: bigint[], since: number): Promise<Map<bigint, { visitId: bigint; at: number }>> {
  const found = new Map<bigint, { visitId: bigint; at: number }>();
  if (visitorIds.length === 0) return found;
  const rows = await db
    .selectDistinctOn([analyticsViews.visitorId], {
      visitorId: analyticsViews.visitorId,
      visitId: analyticsViews.visitId,
      minute: analyticsViews.minute,
    })
    .from(analyticsViews)
    .where(and(inArray(analyticsViews.visitorId, visitorIds), gte(analyticsViews.minute, new Date(since))))
    .orderBy(analyticsViews.visitorId, desc(analyticsViews.minute));
  for (const row of rows) found.set(row.visitorId, { visitId: row.visitId, at: row.minute.getTime() });
  return found;
}

interface Classified {
  row: Omit<ViewRow, "visitId">;
  at: number;
}

/** What one pending view is stored as, or null when it is not counted (a bot, Do Not Track, spam, no address). */
async function classify(
  db: Db,
  view: PendingView,
  honourDoNotTrack: boolean,
  blocked: string[],
  timeZone: string,
): Promise<Classified | null> {
  if (isBot(view.userAgent) || (honourDoNotTrack && view.doNotTrack)) return null;
  const referrer = classifyReferrer(view.referrer, view.host, blocked);
  if (referrer.spam) return null;
  const address = clientAddressOf(view);
  const salt = await saltOf(db, dayIn(view.at, timeZone));
  const visitor = visitorId(salt, view.host, address, view.userAgent);
  if (visitor === null) return null;
  const queryAt = view.url.indexOf("?");
  const campaign = campaignOf(queryAt === -1 ? "" : view.url.slice(queryAt));
  const client = clientClassOf(view.userAgent);
  return {
    at: view.at,
    row: {
      minute: new Date(view.at - (view.at % 60_000)),
      path: storedPath(view.url),
      referrerHost: referrer.host,
      referrerPath: referrer.path,
      utmSource: campaign.source,
      utmMedium: campaign.medium,
      utmCampaign: campaign.campaign,
      country: await countryOfAddress(address),
      device: client.device,
      browser: client.browser,
      os: client.os,
      visitorId: visitor,
    },
  };
}

/** Gives each view its visit: the visitor's visit if their last view is under 30 minutes old, else a new one. */
async function assignVisits(db: Db, classified: Classified[]): Promise<ViewRow[]> {
  const unknown = [...new Set(classified.map((c) => c.row.visitorId).filter((id) => !recentVisits.has(id)))];
  const oldest = Math.min(...classified.map((c) => c.at)) - VISIT_GAP_MS;
  const fromDb = await latestVisits(db, unknown, oldest);
  if (recentVisits.size > 200_000) recentVisits.clear();
  for (const [id, visit] of fromDb) recentVisits.set(id, visit);
  return classified.map(({ row, at }) => {
    const last = recentVisits.get(row.visitorId);
    const visitId = last && at - last.at < VISIT_GAP_MS ? last.visitId : newVisitId();
    recentVisits.set(row.visitorId, { visitId, at: Math.max(at, last?.at ?? 0) });
    return { ...row, visitId };
  });
}

let flushing: Promise<number> = Promise.resolve(0);

/**
 * Writes every noted view: classified, hashed, given its visit, inserted in a few statements. One
 * flush at a time per instance; returns how many views were stored.
 */
export function flushViews(db: Db): Promise<number> {
  flushing = flushing.catch(() => 0).then(() => flushNow(db));
  return flushing;
}

async function flushNow(db: Db): Promise<number> {
  const { views, dropped } = takePendingViews();
  if (dropped.size > 0) {
    const values = [...dropped].map(([minute, count]) => ({ minute: new Date(minute), views: count }));
    await db
      .insert(analyticsDropped)
      .values(values)
      .onConflictDoUpdate({ target: analyticsDropped.minute, set: { views: sql`${analyticsDropped.views} + excluded.views` } });
  }
  if (views.length === 0) return 0;
  const settings = await readAnalyticsSettings(db);
  const timeZone = getEnv().SITE_TIME_ZONE;
  const classified: Classified[] = [];
  for (const { view, count } of identicalViews(views)) {
    const one = await classify(db, view, settings.honourDoNotTrack, settings.blockedReferrers, timeZone);
    if (one) classified.push({ ...one, row: { ...one.row, views: count } });
  }
  if (classified.length === 0) return 0;
  const rows = await assignVisits(db, classified);
  for (let from = 0; from < rows.length; from += INSERT_CHUNK) {
    await db.insert(analyticsViews).values(rows.slice(from, from + INSERT_CHUNK));
  }
  return rows.reduce((sum, row) => sum + (row.views ?? 1), 0);
}

/**
 * Views that would be stored the same — one minute, page, host, referrer, client and address — are
 * classified once and stored as one row with their count: a reader reloading a page, or a flood from
 * one client, costs a row a minute instead of a row a view.
 */
function identicalViews(views: PendingView[]): { view: PendingView; count: number }[] {
  const groups = new Map<string, { view: PendingView; count: number }>();
  for (const view of views) {
    const minute = view.at - (view.at % 60_000);
    const key = [minute, view.url, view.host, view.referrer, view.userAgent, view.remote, view.forwarded, view.doNotTrack].join("\u0000");
    const group = groups.get(key);
    if (group) group.count++;
    else groups.set(key, { view, count: 1 });
  }
  return [...groups.values()];
}

let timer: NodeJS.Timeout | undefined;

/** Flushes every `intervalMs` until stopped (start-up; shutdown flushes once more). */
export function startViewFlushing(db: () => Db, intervalMs: number): void {
  if (timer) return;
  timer = setInterval(() => {
    flushViews(db()).catch((error: unknown) => logger.error({ err: error }, "statistics: storing page views failed"));
  }, intervalMs);
  timer.unref();
}

export async function stopViewFlushing(db: Db | undefined): Promise<void> {
  if (timer) clearInterval(timer);
  timer = undefined;
  if (db) await flushViews(db).catch((error: unknown) => logger.error({ err: error }, "statistics: storing page views failed"));
}
