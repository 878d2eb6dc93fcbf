import ICAL from "ical.js";
import { asc, eq, isNull, lt, or, sql } from "drizzle-orm";
import { z } from "zod";
import { canManageBookings, type Actor } from "~/lib/permissions";
import { authorize } from "~/server/authorize.server";
import { bumpContentVersion } from "~/server/content-version.server";
import { NotFoundError, parseOrThrow } from "~/server/errors.server";
import { BOOKINGS_FORBIDDEN } from "./booking-schema";
import { fetchDocument } from "~/features/feeds/fetch-document.server";
import type { Db } from "~/server/db/client.server";
import { bookingBusyTimes, bookingCalendarFeeds } from "~/server/db/schema.server";
import { getEnv } from "~/server/env.server";
import { errorSummary } from "~/server/jobs/jobs.server";
import { defineRecurringTask } from "~/server/jobs/recurring.server";
import { openWithAppSecret, sealWithAppSecret } from "~/server/secret.server";
import { DAY_MS, instantOf } from "~/lib/time-zone";
import type { Interval } from "./slots";
import { CALDAV_HTTP_REFUSED, CALDAV_PASSWORD_PURPOSE, isCaldavAddressAllowed, readCaldavEvents } from "./caldav.server";

/**
 * The owner's calendar feeds (private ICS addresses, and CalDAV calendars read with a user name and
 * password: caldav.server.ts): read in the background by the job runner,
 * expanded into busy intervals (recurring events with RRULE, EXDATE and moved occurrences, all-day
 * events, VTIMEZONE) and stored in the database, so every instance offers the same slots. A feed
 * that fails keeps its last good busy times and records its error; the slot listing pauses booking
 * when a feed has not been read for three refresh intervals (booking.server.ts).
 */

/** How far ahead busy times are expanded: past the longest booking horizon a call type allows. */
export const BUSY_HORIZON_DAYS = 400;
/** Recurring events expand to at most this many occurrences each (a daily event over the horizon fits). */
const MAX_OCCURRENCES_PER_EVENT = 1_000;
const FETCH_TIMEOUT_MS = 15_000;
const FETCH_MAX_BYTES = 5 * 1024 * 1024;

/** A feed address is fetched over HTTP(S) only; webcal:// (what calendar apps show) means https://. */
export function feedFetchUrl(url: string): string {
  return url.replace(/^webcal:\/\//i, "https://");
}

const isHttp = (url: URL) => url.protocol === "https:" || url.protocol === "http:";

/** An instant for an ical.js time: zoned and UTC times as they are, floating and all-day times in the owner's zone. */
function instantOfTime(time: ICAL.Time, ownerZone: string): number {
  const zone = time.zone;
  const floating = !zone || zone.tzid === "floating";
  if (!floating) return time.toJSDate().getTime();
  const day = `${String(time.year).padStart(4, "0")}-${String(time.month).padStart(2, "0")}-${String(time.day).padStart(2, "0")}`;
  if (time.isDate) return instantOf(day, 0, ownerZone);
  return instantOf(day, time.hour * 60 + time.minute, ownerZone) + time.second * 1000;
}

/**
 * The busy intervals of an iCalendar text between two instants. Transparent events (TRANSP:TRANSPARENT,
 * "show as free") and cancelled ones do not count; an event without DTEND lasts its DURATION, or one
 * day when it is all-day. Throws on text that is not iCalendar.
 */
export function parseBusyTimes(text: string, window: Interval, ownerZone: string): Interval[] {
  const calendar = new ICAL.Component(ICAL.parse(text));
  if (calendar.name !== "vcalendar") throw new Error("not an iCalendar document");
  for (const vtimezone of calendar.getAllSubcomponents("vtimezone")) {
    const zone = new ICAL.Timezone(vtimezone);
    if (!ICAL.TimezoneService.has(zone.tzid)) ICAL.TimezoneService.register(zone);
  }
  const events = calendar.getAllSubcomponents("vevent");
  const masters = new Map<string, ICAL.Event>();
  const exceptions: ICAL.Component[] = [];
  for (const component of events) {
    if (component.hasProperty("recurrence-id")) exceptions.push(component);
    else {
      const event = new ICAL.Event(component);
      masters.set(event.uid, event);
    }
  }
  for (const exception of exceptions) {
    const master = masters.get(String(exception.getFirstPropertyValue("uid")));
    if (master) master.relateException(exception);
    else {
      const single = new ICAL.Event(exception);
      masters.set(`${single.uid} ${String(exception.getFirstPropertyValue("recurrence-id"))}`, single);
    }
  }

  const busy: Interval[] = [];
  const counts = (component: ICAL.Component) =>
    String(component.getFirstPropertyValue("transp") ?? "").toUpperCase() !== "TRANSPARENT" &&
    String(component.getFirstPropertyValue("status") ?? "").toUpperCase() !== "CANCELLED";
  const add = (start: ICAL.Time, end: ICAL.Time | null, component: ICAL.Component) => {
    if (!counts(component)) return;
    const from = instantOfTime(start, ownerZone);
    const until = end ? instantOfTime(end, ownerZone) : from + (start.isDate ? DAY_MS : 0);
    if (until > window.start && from < window.end && until > from) busy.push({ start: from, end: until });
  };
  for (const event of masters.values()) {
    if (!event.startDate) continue;
    if (!event.isRecurring()) {
      add(event.startDate, event.endDate, event.component);
      continue;
    }
    const iterator = event.iterator();
    for (let n = 0, next = iterator.next(); next && n < MAX_OCCURRENCES_PER_EVENT; n++, next = iterator.next()) {
      if (instantOfTime(next, ownerZone) >= window.end) break;
      const occurrence = event.getOccurrenceDetails(next);
      add(occurrence.startDate, occurrence.endDate, occurrence.item.component);
    }
  }
  return busy.sort((a, b) => a.start - b.start || a.end - b.end);
}

type FeedSource = Pick<typeof bookingCalendarFeeds.$inferSelect, "kind" | "url" | "username" | "passwordSealed">;

/** A feed's busy times in `window`: the ICS document, or the CalDAV calendar's events, expanded alike. */
async function readBusyTimes(db: Db, feed: FeedSource, window: Interval, ownerZone: string): Promise<Interval[]> {
  const limits = { timeoutMs: FETCH_TIMEOUT_MS, maxBytes: FETCH_MAX_BYTES };
  if (feed.kind === "ics") {
    const { body } = await fetchDocument(feedFetchUrl(feed.url), { ...limits, isAllowed: isHttp });
    return parseBusyTimes(body, window, ownerZone);
  }
  let password = "";
  if (feed.passwordSealed) {
    try {
      password = await openWithAppSecret(db, CALDAV_PASSWORD_PURPOSE, feed.passwordSealed);
    } catch {
      throw new Error("The saved password cannot be decrypted (the app secret changed): remove this calendar and add it again");
    }
  }
  const events = await readCaldavEvents({ url: feed.url, username: feed.username ?? "", password }, window, limits);
  return events.flatMap((text) => parseBusyTimes(text, window, ownerZone)).sort((a, b) => a.start - b.start || a.end - b.end);
}

/** Reads one feed and replaces its busy times; on failure records the error and keeps the last good ones. */
export async function refreshCalendarFeed(db: Db, feedId: string, now: number, ownerZone: string): Promise<void> {
  const [feed] = await db
    .select({
      id: bookingCalendarFeeds.id,
      kind: bookingCalendarFeeds.kind,
      url: bookingCalendarFeeds.url,
      username: bookingCalendarFeeds.username,
      passwordSealed: bookingCalendarFeeds.passwordSealed,
      lastSuccessAt: bookingCalendarFeeds.lastSuccessAt,
      refreshMinutes: bookingCalendarFeeds.refreshMinutes,
    })
    .from(bookingCalendarFeeds)
    .where(eq(bookingCalendarFeeds.id, feedId));
  if (!feed) return;
  // Booking is paused while a feed has gone unread for three intervals (booking.server.ts): this read ends that.
  const wasPausing = (feed.lastSuccessAt?.getTime() ?? -Infinity) < now - feed.refreshMinutes * 3 * 60_000;
  const attemptedAt = new Date(now);
  try {
    const busy = await readBusyTimes(db, feed, { start: now - DAY_MS, end: now + BUSY_HORIZON_DAYS * DAY_MS }, ownerZone);
    await db.transaction(async (tx) => {
      const before = await tx
        .select({ startsAt: bookingBusyTimes.startsAt, endsAt: bookingBusyTimes.endsAt })
        .from(bookingBusyTimes)
        .where(eq(bookingBusyTimes.feedId, feed.id))
        .orderBy(asc(bookingBusyTimes.startsAt), asc(bookingBusyTimes.endsAt));
      const same =
        before.length === busy.length &&
        before.every((b, i) => b.startsAt.getTime() === busy[i]?.start && b.endsAt.getTime() === busy[i]?.end);
      // Written only when they changed: each write renews the slot stamp (the slot cache).
      if (!same) {
        await tx.delete(bookingBusyTimes).where(eq(bookingBusyTimes.feedId, feed.id));
        for (let i = 0; i < busy.length; i += 500) {
          await tx
            .insert(bookingBusyTimes)
            .values(busy.slice(i, i + 500).map((b) => ({ feedId: feed.id, startsAt: new Date(b.start), endsAt: new Date(b.end) })));
        }
      }
      await tx
        .update(bookingCalendarFeeds)
        .set({ lastAttemptAt: attemptedAt, lastSuccessAt: attemptedAt, lastError: null })
        .where(eq(bookingCalendarFeeds.id, feed.id));
      // Cached pages show slots or the pause (the home page's "Reach Me"): new busy times, or the end of
      // a pause, move the content version, bumped last (the stamp's row is locked first).
      if (!same || wasPausing) await bumpContentVersion(tx);
    });
  } catch (error) {
    // The message names the failure, never the address: feed URLs are secrets.
    const message = errorSummary(error, 300).split(feed.url).join("…");
    await db
      .update(bookingCalendarFeeds)
      .set({ lastAttemptAt: attemptedAt, lastError: message })
      .where(eq(bookingCalendarFeeds.id, feed.id));
  }
}

/** Refreshes every feed whose refresh interval has passed since its last attempt. */
export async function refreshDueCalendarFeeds(db: Db, now: number, ownerZone: string): Promise<number> {
  const due = await db
    .select({ id: bookingCalendarFeeds.id })
    .from(bookingCalendarFeeds)
    .where(
      or(
        isNull(bookingCalendarFeeds.lastAttemptAt),
        lt(
          bookingCalendarFeeds.lastAttemptAt,
          sql`${new Date(now).toISOString()}::timestamptz - make_interval(mins => ${bookingCalendarFeeds.refreshMinutes})`,
        ),
      ),
    );
  for (const feed of due) await refreshCalendarFeed(db, feed.id, now, ownerZone);
  return due.length;
}

/** The background refresh of the calendar feeds: every minute, each feed whose own interval has passed. */
export const calendarFeedsTask = defineRecurringTask(
  "booking.calendar-feeds",
  60_000,
  async ({ db }) => {
    await refreshDueCalendarFeeds(db, Date.now(), getEnv().SITE_TIME_ZONE);
  },
  { leaseMs: 5 * 60_000, retryMs: 60_000 },
);

/** A feed address as the admin shows it: scheme and host only, the secret path never shown back. */
export function maskedFeedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}/…`;
  } catch {
    return "…";
  }
}

/** The feeds as the admin's Bookings page lists them (addresses masked). */
export async function listCalendarFeeds(db: Db, actor: Actor | null) {
  authorize(actor, canManageBookings, BOOKINGS_FORBIDDEN);
  const counts = await db
    .select({ feedId: bookingBusyTimes.feedId, count: sql<number>`count(*)::int` })
    .from(bookingBusyTimes)
    .groupBy(bookingBusyTimes.feedId);
  const rows = await db
    .select({
      id: bookingCalendarFeeds.id,
      label: bookingCalendarFeeds.label,
      kind: bookingCalendarFeeds.kind,
      url: bookingCalendarFeeds.url,
      username: bookingCalendarFeeds.username,
      refreshMinutes: bookingCalendarFeeds.refreshMinutes,
      lastAttemptAt: bookingCalendarFeeds.lastAttemptAt,
      lastSuccessAt: bookingCalendarFeeds.lastSuccessAt,
      lastError: bookingCalendarFeeds.lastError,
    })
    .from(bookingCalendarFeeds)
    .orderBy(asc(bookingCalendarFeeds.createdAt));
  return rows.map(({ url, lastAttemptAt, lastSuccessAt, ...row }) => ({
    ...row,
    busyCount: counts.find((c) => c.feedId === row.id)?.count ?? 0,
    address: maskedFeedUrl(url),
    lastAttemptAt: lastAttemptAt?.toISOString() ?? null,
    lastSuccessAt: lastSuccessAt?.toISOString() ?? null,
  }));
}

const labelField = z.string().trim().min(1, "Name the calendar").max(120, "The name must be at most 120 characters");
const refreshMinutesField = z.coerce
  .number({ error: "Refresh interval must be a number" })
  .int("Refresh interval must be whole minutes")
  .min(5, "Refresh interval must be at least 5 minutes")
  .max(1440, "Refresh interval must be at most 1440 minutes")
  .default(10);

export const calendarFeedFormSchema = z.object({
  label: labelField,
  url: z
    .string()
    .trim()
    .max(2000, "The address must be at most 2000 characters")
    .refine(
      (v) => /^(https?|webcal):\/\/[^\s]+$/i.test(v) && URL.canParse(feedFetchUrl(v)),
      "Paste the calendar's https:// or webcal:// address",
    ),
  refreshMinutes: refreshMinutesField,
});

export const caldavCalendarFormSchema = z.object({
  label: labelField,
  url: z
    .string()
    .trim()
    .max(2000, "The address must be at most 2000 characters")
    .refine((v) => /^https?:\/\/[^\s]+$/i.test(v) && URL.canParse(v), "Paste the calendar's CalDAV address (https://…)")
    .refine((v) => !URL.canParse(v) || isCaldavAddressAllowed(new URL(v)), CALDAV_HTTP_REFUSED),
  username: z.string().trim().min(1, "Enter the user name").max(200, "The user name must be at most 200 characters"),
  password: z.string().min(1, "Enter the password").max(1000, "The password must be at most 1000 characters"),
  refreshMinutes: refreshMinutesField,
});

/** Adds a feed and reads it at once (until it has been read, booking is paused). */
export async function addCalendarFeed(db: Db, actor: Actor | null, input: unknown, now = Date.now()): Promise<string> {
  authorize(actor, canManageBookings, BOOKINGS_FORBIDDEN);
  const values = parseOrThrow(calendarFeedFormSchema, input);
  return insertFeed(db, values, now);
}

/**
 * Adds a CalDAV calendar and reads it at once. The password is sealed with a key derived from the
 * app secret (like the SMTP password) and never shown back or logged.
 */
export async function addCaldavCalendar(db: Db, actor: Actor | null, input: unknown, now = Date.now()): Promise<string> {
  authorize(actor, canManageBookings, BOOKINGS_FORBIDDEN);
  const { password, ...values } = parseOrThrow(caldavCalendarFormSchema, input);
  const passwordSealed = await sealWithAppSecret(db, CALDAV_PASSWORD_PURPOSE, password);
  return insertFeed(db, { ...values, kind: "caldav", passwordSealed }, now);
}

/**
 * Stores a new feed and reads it at once. Until it has been read booking is paused, which cached
 * pages show at once (the home page's "Reach Me"): the insert moves the content version.
 */
async function insertFeed(db: Db, values: typeof bookingCalendarFeeds.$inferInsert, now: number): Promise<string> {
  const id = await db.transaction(async (tx) => {
    const [row] = await tx.insert(bookingCalendarFeeds).values(values).returning({ id: bookingCalendarFeeds.id });
    if (!row) throw new Error("insert returned no row");
    await bumpContentVersion(tx);
    return row.id;
  });
  await refreshCalendarFeed(db, id, now, getEnv().SITE_TIME_ZONE);
  return id;
}

/** Reads a feed now (the admin's "Refresh now"). */
export async function refreshCalendarFeedNow(db: Db, actor: Actor | null, id: unknown): Promise<void> {
  authorize(actor, canManageBookings, BOOKINGS_FORBIDDEN);
  const feedId = parseOrThrow(z.uuid("Unknown calendar"), id);
  const [found] = await db.select({ id: bookingCalendarFeeds.id }).from(bookingCalendarFeeds).where(eq(bookingCalendarFeeds.id, feedId));
  if (!found) throw new NotFoundError("Calendar not found");
  await refreshCalendarFeed(db, feedId, Date.now(), getEnv().SITE_TIME_ZONE);
}

/** Removes a feed with its busy times. */
export async function removeCalendarFeed(db: Db, actor: Actor | null, id: unknown): Promise<void> {
  authorize(actor, canManageBookings, BOOKINGS_FORBIDDEN);
  const feedId = parseOrThrow(z.uuid("Unknown calendar"), id);
  await db.transaction(async (tx) => {
    const removed = await tx
      .delete(bookingCalendarFeeds)
      .where(eq(bookingCalendarFeeds.id, feedId))
      .returning({ id: bookingCalendarFeeds.id });
    if (removed.length === 0) throw new NotFoundError("Calendar not found");
    await bumpContentVersion(tx);
  });
}
