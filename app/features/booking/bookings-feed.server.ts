import { createHash, randomBytes } from "node:crypto";
import { asc, eq, gte, sql } from "drizzle-orm";
import { z } from "zod";
import { readSiteSettings } from "~/features/settings/settings.server";
import { emailSiteUrl } from "~/features/settings/site-url.server";
import { canManageBookings, type Actor } from "~/lib/permissions";
import { DAY_MS } from "~/lib/time-zone";
import { recordAudit } from "~/server/audit.server";
import { authorize } from "~/server/authorize.server";
import type { Db } from "~/server/db/client.server";
import { bookingCallTypes, bookings, bookingSettings } from "~/server/db/schema.server";
import { NotFoundError } from "~/server/errors.server";
import { enforceRateLimits } from "~/server/rate-limit.server";
import { BOOKINGS_FORBIDDEN } from "./booking-schema";
import { bookingColumns, inviteContext, inviteEventFor } from "./booking.server";
import { calendarText } from "./invite.server";

/**
 * The owner's private calendar feed of bookings: an ICS address with a secret in its query string
 * (the access log never writes query strings), which the owner subscribes to in any calendar app.
 * Only the secret's SHA-256 is stored, so the address is shown once, when it is made; "Reset link"
 * makes a new secret and the old address answers 404 from then on, on every instance at once.
 */

export const BOOKINGS_FEED_PATH = "/api/bookings/calendar.ics";

/** Said for a wrong, reset or missing secret alike (nothing tells a guesser which). */
export const FEED_NOT_FOUND = "This calendar address is not valid. Copy the current one from Admin → Bookings.";

/** Per address: calendar apps read a feed every few minutes at most; guessing gets no further. */
const FEED_RATE_LIMIT = { limit: 60, windowSeconds: 3600 };
const FEED_RATE_LIMITED = "This calendar address was read too often. Please try again later.";

/** Calls that ended this long ago stay in the feed, so the owner's calendar keeps recent history. */
const FEED_PAST_DAYS = 30;
const FEED_MAX_EVENTS = 2000;
export const FEED_REFRESH_MINUTES = 15;

/** 32 random bytes, base64url: 43 characters. */
const feedSecretSchema = z.string().regex(/^[A-Za-z0-9_-]{43}$/);

const hashOf = (secret: string) => createHash("sha256").update(secret).digest("base64url");

const feedAddress = (base: string, secret: string) => `${base}${BOOKINGS_FEED_PATH}?token=${secret}`;

/** Whether a feed address exists, and since when (the admin page; never the address itself). */
export async function feedLinkState(db: Db, actor: Actor | null): Promise<{ active: boolean; since: string | null }> {
  authorize(actor, canManageBookings, BOOKINGS_FORBIDDEN);
  const [row] = await db.select({ hash: bookingSettings.feedTokenHash, updatedAt: bookingSettings.updatedAt }).from(bookingSettings);
  return row?.hash ? { active: true, since: row.updatedAt.toISOString() } : { active: false, since: null };
}

/**
 * Makes a new feed address (the first, or in place of the current one, which stops working) and
 * returns it: the only time it is shown. The site's configured address starts it, never a Host header.
 */
export async function resetFeedLink(db: Db, actor: Actor | null): Promise<string> {
  authorize(actor, canManageBookings, BOOKINGS_FORBIDDEN);
  const secret = randomBytes(32).toString("base64url");
  await db.transaction(async (tx) => {
    const [before] = await tx.select({ hash: bookingSettings.feedTokenHash }).from(bookingSettings);
    await tx
      .insert(bookingSettings)
      .values({ id: 1, feedTokenHash: hashOf(secret) })
      .onConflictDoUpdate({ target: bookingSettings.id, set: { feedTokenHash: hashOf(secret), updatedAt: sql`now()` } });
    await recordAudit(tx, {
      actor,
      action: "booking.feed-link.reset",
      summary: before?.hash ? "New calendar feed address; the old one no longer works" : "Calendar feed address made",
    });
  });
  return feedAddress(emailSiteUrl(await readSiteSettings(db)), secret);
}

/** Turns the feed off: the current address answers 404 until a new one is made. */
export async function turnOffFeedLink(db: Db, actor: Actor | null): Promise<void> {
  authorize(actor, canManageBookings, BOOKINGS_FORBIDDEN);
  await db.transaction(async (tx) => {
    await tx
      .update(bookingSettings)
      .set({ feedTokenHash: null, updatedAt: sql`now()` })
      .where(eq(bookingSettings.id, 1));
    await recordAudit(tx, { actor, action: "booking.feed-link.off", summary: "Calendar feed address turned off" });
  });
}

/**
 * The feed itself for whoever holds the address (no session: calendar apps send no cookie): every
 * booking from FEED_PAST_DAYS ago on, confirmed ones as they are, cancelled ones as STATUS:CANCELLED
 * (with the same UID and a higher SEQUENCE, so apps drop the event). Rate-limited per client address
 * before the secret is checked; a wrong secret is 404.
 */
export async function bookingsFeed(db: Db, secret: string | null, ip: string, now = Date.now()): Promise<string> {
  await enforceRateLimits(db, [{ key: `booking-feed:ip:${ip}`, ...FEED_RATE_LIMIT }], FEED_RATE_LIMITED);
  const parsed = feedSecretSchema.safeParse(secret);
  if (!parsed.success) throw new NotFoundError(FEED_NOT_FOUND);
  const [row] = await db
    .select({ id: bookingSettings.id })
    .from(bookingSettings)
    .where(eq(bookingSettings.feedTokenHash, hashOf(parsed.data)));
  if (!row) throw new NotFoundError(FEED_NOT_FOUND);
  const [rows, context] = await Promise.all([
    db
      .select(bookingColumns)
      .from(bookings)
      .innerJoin(bookingCallTypes, eq(bookingCallTypes.id, bookings.callTypeId))
      .where(gte(bookings.endsAt, new Date(now - FEED_PAST_DAYS * DAY_MS)))
      .orderBy(asc(bookings.startsAt))
      .limit(FEED_MAX_EVENTS),
    inviteContext(db),
  ]);
  const events = rows.map((booking) => inviteEventFor(booking, context, { forOwner: true }));
  return calendarText("PUBLISH", events, { name: `Bookings — ${context.siteName}`, refreshMinutes: FEED_REFRESH_MINUTES });
}
