import { and, asc, desc, eq, gte, inArray, isNull, sql } from "drizzle-orm";
import type { Db } from "~/server/db/client.server";
import { analyticsConversions, analyticsViews, CONVERSION_KINDS } from "~/server/db/schema.server";
import { getEnv } from "~/server/env.server";
import { logger } from "~/server/logger.server";
import { clientIp } from "~/server/request.server";
import { POST_PATH } from "./classify";
import { collectorEnabled } from "./collector.server";
import { flushViews, VISIT_GAP_MS } from "./ingest.server";
import { dayIn, saltOf, visitorId } from "./visitor.server";

export type ConversionKind = (typeof CONVERSION_KINDS)[number];

/** Where a conversion's visit came from, as stored with the conversion. */
export interface CameFrom {
  entryPath: string | null;
  referrerHost: string | null;
  utmSource: string | null;
  utmCampaign: string | null;
  lastPostPath: string | null;
}

/**
 * The visit the request belongs to (its visitor's views of the last 30 minutes), or null when the
 * visitor has no counted view (a bot, Do Not Track, counting off). This instance's noted views are
 * flushed first, so the page the form was on is part of it.
 */
async function visitOf(db: Db, request: Request): Promise<CameFrom | null> {
  const userAgent = request.headers.get("user-agent");
  const host = request.headers.get("host");
  if (!collectorEnabled() || !userAgent || !host) return null;
  await flushViews(db);
  const salt = await saltOf(db, dayIn(Date.now(), getEnv().SITE_TIME_ZONE));
  const visitor = visitorId(salt, host, clientIp(request), userAgent);
  if (visitor === null) return null;
  const since = new Date(Date.now() - VISIT_GAP_MS - 60_000);
  const [last] = await db
    .select({ visitId: analyticsViews.visitId })
    .from(analyticsViews)
    .where(and(eq(analyticsViews.visitorId, visitor), gte(analyticsViews.minute, since)))
    .orderBy(desc(analyticsViews.minute))
    .limit(1);
  if (!last) return null;
  const views = await db
    .select({
      path: analyticsViews.path,
      referrerHost: analyticsViews.referrerHost,
      utmSource: analyticsViews.utmSource,
      utmCampaign: analyticsViews.utmCampaign,
    })
    .from(analyticsViews)
    .where(eq(analyticsViews.visitId, last.visitId))
    .orderBy(asc(analyticsViews.minute));
  const entry = views[0];
  const tagged = views.find((view) => view.utmCampaign ?? view.utmSource);
  return {
    entryPath: entry?.path ?? null,
    referrerHost: entry?.referrerHost ?? null,
    utmSource: tagged?.utmSource ?? null,
    utmCampaign: tagged?.utmCampaign ?? null,
    lastPostPath: views.findLast((view) => POST_PATH.test(view.path))?.path ?? null,
  };
}

/**
 * Records a conversion with its visit's origin. `counted`: whether it counts now (a contact message)
 * or only once confirmed (a subscription: `countConversion`). Never throws: statistics must not fail
 * the visitor's own action.
 */
export async function recordConversion(db: Db, kind: ConversionKind, subjectId: string, request: Request, counted: boolean): Promise<void> {
  try {
    const origin = (await visitOf(db, request)) ?? {
      entryPath: null,
      referrerHost: null,
      utmSource: null,
      utmCampaign: null,
      lastPostPath: null,
    };
    const at = counted ? new Date() : null;
    await db
      .insert(analyticsConversions)
      .values({ kind, subjectId, at, ...origin })
      .onConflictDoUpdate({
        target: [analyticsConversions.kind, analyticsConversions.subjectId],
        set: { ...origin },
        // A conversion already counted keeps the origin it was counted with.
        setWhere: isNull(analyticsConversions.at),
      });
  } catch (error) {
    logger.error({ err: error, kind }, "statistics: recording a conversion failed");
  }
}

/** Counts a conversion recorded earlier (a subscription once confirmed); never throws. */
export async function countConversion(db: Db, kind: ConversionKind, subjectId: string): Promise<void> {
  try {
    await db
      .insert(analyticsConversions)
      .values({ kind, subjectId, at: new Date() })
      .onConflictDoUpdate({
        target: [analyticsConversions.kind, analyticsConversions.subjectId],
        set: { at: sql`now()` },
        setWhere: isNull(analyticsConversions.at),
      });
  } catch (error) {
    logger.error({ err: error, kind }, "statistics: counting a conversion failed");
  }
}

/** "Came from: …" for each subject that has a recorded origin (the admin's messages, subscribers and bookings). */
export async function cameFromOf(db: Db, kind: ConversionKind, subjectIds: string[]): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  if (subjectIds.length === 0) return found;
  const rows = await db
    .select({
      subjectId: analyticsConversions.subjectId,
      entryPath: analyticsConversions.entryPath,
      referrerHost: analyticsConversions.referrerHost,
      utmSource: analyticsConversions.utmSource,
      utmCampaign: analyticsConversions.utmCampaign,
      lastPostPath: analyticsConversions.lastPostPath,
    })
    .from(analyticsConversions)
    .where(and(eq(analyticsConversions.kind, kind), inArray(analyticsConversions.subjectId, subjectIds)));
  for (const row of rows) {
    const text = describeOrigin(row);
    if (text) found.set(row.subjectId, text);
  }
  return found;
}

const shorten = (path: string) => (path.length > 48 ? `${path.slice(0, 47)}…` : path);

/** "Came from: linkedin.com → /7fs/Finance/a-simple-budget… (campaign: spring-newsletter)", or null when nothing is known. */
export function describeOrigin(origin: CameFrom): string | null {
  if (!origin.entryPath) return null;
  const source = origin.referrerHost ?? origin.utmSource ?? "Direct";
  const campaign = origin.utmCampaign ? ` (campaign: ${origin.utmCampaign})` : "";
  const lastPost =
    origin.lastPostPath && origin.lastPostPath !== origin.entryPath ? `; last post read: ${shorten(origin.lastPostPath)}` : "";
  return `Came from: ${source} → ${shorten(origin.entryPath)}${campaign}${lastPost}`;
}
