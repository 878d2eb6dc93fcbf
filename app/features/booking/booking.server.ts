import { createHmac, timingSafeEqual } from "node:crypto";
import { and, asc, eq, gt, gte, lt, lte, ne, sql } from "drizzle-orm";
import { z } from "zod";
import { readSiteSettings } from "~/features/settings/settings.server";
import { emailSiteUrl } from "~/features/settings/site-url.server";
import { VERIFICATION_REQUIRED } from "~/features/verification/verification";
import { verifyHumanToken } from "~/features/verification/verification.server";
import { canManageBookings, type Actor } from "~/lib/permissions";
import { DAY_MS, wallTimeOf } from "~/lib/time-zone";
import { authorize } from "~/server/authorize.server";
import { bumpContentVersion } from "~/server/content-version.server";
import type { Db } from "~/server/db/client.server";
import { EXCLUSION_VIOLATION, hasPgErrorCode, retryOnDeadlock } from "~/server/db/pg-errors.server";
import {
  bookingBusyTimes,
  bookingCalendarFeeds,
  bookingCallTypes,
  bookingDateOverrides,
  bookings,
  bookingSlotStamp,
  bookingWeeklyHours,
} from "~/server/db/schema.server";
import { getEnv } from "~/server/env.server";
import { ConflictError, ForbiddenError, NotFoundError, ValidationError, parseOrThrow } from "~/server/errors.server";
import { logger } from "~/server/logger.server";
import { cancelMail, defineMailKind } from "~/server/mail-outbox.server";
import { mailFromAddress } from "~/server/mail.server";
import { enforceRateLimits } from "~/server/rate-limit.server";
import { getAppSecret } from "~/server/secret.server";
import { BOOKING_TEXT, BOOKINGS_FORBIDDEN, bookingRequestSchema } from "./booking-schema";
import { calendarText, googleCalendarLink, type InviteEvent, type InviteMethod } from "./invite.server";
import { cachedSlots } from "./slot-cache.server";
import { availableSlots, blockedInterval, isOfferedSlot, slotsStartingWithin, type Interval, type SlotInput } from "./slots";

/**
 * Booking calls: the rules of call types, slots and bookings, on the database. Overlap is refused
 * by the database (bookings_no_overlap, an exclusion constraint over the call and its buffers), so
 * the slot check here is what keeps visitors on offered times and the constraint is what keeps two
 * bookings apart, however many requests race.
 */

const MINUTE_MS = 60_000;

export type CallType = typeof bookingCallTypes.$inferSelect;

const callTypeColumns = {
  id: bookingCallTypes.id,
  slug: bookingCallTypes.slug,
  name: bookingCallTypes.name,
  description: bookingCallTypes.description,
  durationMinutes: bookingCallTypes.durationMinutes,
  incrementMinutes: bookingCallTypes.incrementMinutes,
  bufferBeforeMinutes: bookingCallTypes.bufferBeforeMinutes,
  bufferAfterMinutes: bookingCallTypes.bufferAfterMinutes,
  minimumNoticeMinutes: bookingCallTypes.minimumNoticeMinutes,
  horizonDays: bookingCallTypes.horizonDays,
  dailyCap: bookingCallTypes.dailyCap,
  location: bookingCallTypes.location,
  videoUrl: bookingCallTypes.videoUrl,
  questions: bookingCallTypes.questions,
  remind24h: bookingCallTypes.remind24h,
  remind1h: bookingCallTypes.remind1h,
  active: bookingCallTypes.active,
  displayOrder: bookingCallTypes.displayOrder,
  createdAt: bookingCallTypes.createdAt,
  updatedAt: bookingCallTypes.updatedAt,
};

/** The site's zone: weekly hours and overrides are wall-clock times there. */
export function ownerTimeZone(): string {
  return getEnv().SITE_TIME_ZONE;
}

/** Active call types in the owner's order; the first is the default. */
export function activeCallTypes(db: Db): Promise<CallType[]> {
  return db
    .select(callTypeColumns)
    .from(bookingCallTypes)
    .where(eq(bookingCallTypes.active, true))
    .orderBy(asc(bookingCallTypes.displayOrder), asc(bookingCallTypes.createdAt));
}

/** An active call type by its address name, or the default one; NotFoundError for an unknown one. */
export async function activeCallType(db: Db, slug?: string | null): Promise<CallType> {
  return callTypeOf(await activeCallTypes(db), slug);
}

/** The call type of `slug` among the active ones (`activeCallTypes`), or the default one; NotFoundError for an unknown one. */
export function callTypeOf(types: readonly CallType[], slug?: string | null): CallType {
  const found = slug ? types.find((t) => t.slug === slug) : types[0];
  if (!found) throw new NotFoundError(BOOKING_TEXT.unknownType);
  return found;
}

/**
 * Whether booking is paused: a calendar feed has not been read for longer than three refresh
 * intervals (or never), so its busy times may be missing and a slot could clash.
 */
function feedsPausingAt(now: number) {
  return sql`coalesce(${bookingCalendarFeeds.lastSuccessAt}, '-infinity'::timestamptz) < ${new Date(now).toISOString()}::timestamptz - make_interval(mins => ${bookingCalendarFeeds.refreshMinutes} * 3)`;
}

async function pausedFeeds(db: Db, now: number): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(bookingCalendarFeeds)
    .where(feedsPausingAt(now));
  return row?.count ?? 0;
}

/**
 * In one query: whether booking is paused now, the slot stamp (null if its row is missing), and the
 * instant the pause begins without any write (the first feed's last read + three intervals; null
 * without feeds): booking is paused once `now` is past it.
 */
async function slotState(db: Db, now: number): Promise<{ paused: boolean; stamp: string | null; pausesAfter: number | null }> {
  const pausing = feedsPausingAt(now);
  const [row] = await db
    .select({
      paused: sql<number>`(count(*) filter (where ${pausing}))::int`,
      pausesAfter: sql<
        number | null
      >`(extract(epoch from min(${bookingCalendarFeeds.lastSuccessAt} + make_interval(mins => ${bookingCalendarFeeds.refreshMinutes} * 3)) filter (where not (${pausing}))) * 1000)::float8`,
      stamp: sql<string | null>`(select ${bookingSlotStamp.stamp} from ${bookingSlotStamp} where ${bookingSlotStamp.id} = 1)`,
    })
    .from(bookingCalendarFeeds);
  return { paused: (row?.paused ?? 0) > 0, stamp: row?.stamp ?? null, pausesAfter: row?.pausesAfter ?? null };
}

/**
 * What a page of slots is shown for, read per request (docs/decisions/0083-slot-page-cache.md): the
 * slot stamp and whether booking is paused now. A page rendered at one value never answers a request
 * that reads another, so a booking, a feed read or a pause on any instance shows on the next request.
 */
export async function slotPageVersion(db: Db, now = Date.now()): Promise<string> {
  const { paused, stamp } = await slotState(db, now);
  return `${stamp ?? "none"}:${paused ? "paused" : "open"}`;
}

export const weeklyColumns = {
  weekday: bookingWeeklyHours.weekday,
  startMinute: bookingWeeklyHours.startMinute,
  endMinute: bookingWeeklyHours.endMinute,
};

export const overrideColumns = {
  firstDay: bookingDateOverrides.firstDay,
  lastDay: bookingDateOverrides.lastDay,
  startMinute: bookingDateOverrides.startMinute,
  endMinute: bookingDateOverrides.endMinute,
};

/** Everything the slot module needs for one call type between two instants. */
async function slotInputFor(db: Db, callType: CallType, now: number, window: Interval, exceptBookingId?: string): Promise<SlotInput> {
  const timeZone = ownerTimeZone();
  // Busy intervals reaching into the window, with the widest buffers a call could add.
  const reach = { start: window.start - DAY_MS, end: window.end + DAY_MS };
  const from = new Date(reach.start);
  const until = new Date(reach.end);
  const [weekly, overrides, booked, busy] = await Promise.all([
    db.select(weeklyColumns).from(bookingWeeklyHours),
    db
      .select(overrideColumns)
      .from(bookingDateOverrides)
      .where(
        and(
          lte(bookingDateOverrides.firstDay, wallTimeOf(reach.end, timeZone).day),
          gte(bookingDateOverrides.lastDay, wallTimeOf(reach.start, timeZone).day),
        ),
      ),
    db
      .select({
        callTypeId: bookings.callTypeId,
        startsAt: bookings.startsAt,
        blockedFrom: bookings.blockedFrom,
        blockedUntil: bookings.blockedUntil,
      })
      .from(bookings)
      .where(
        and(
          eq(bookings.status, "confirmed"),
          lt(bookings.blockedFrom, until),
          gt(bookings.blockedUntil, from),
          exceptBookingId ? ne(bookings.id, exceptBookingId) : undefined,
        ),
      ),
    db
      .select({ startsAt: bookingBusyTimes.startsAt, endsAt: bookingBusyTimes.endsAt })
      .from(bookingBusyTimes)
      .where(and(lt(bookingBusyTimes.startsAt, until), gt(bookingBusyTimes.endsAt, from))),
  ]);
  const bookedPerDay = new Map<string, number>();
  for (const b of booked) {
    if (b.callTypeId !== callType.id) continue;
    const day = wallTimeOf(b.startsAt.getTime(), timeZone).day;
    bookedPerDay.set(day, (bookedPerDay.get(day) ?? 0) + 1);
  }
  return {
    timeZone,
    rules: callType,
    weekly,
    overrides,
    busy: [
      ...booked.map((b) => ({ start: b.blockedFrom.getTime(), end: b.blockedUntil.getTime() })),
      ...busy.map((b) => ({ start: b.startsAt.getTime(), end: b.endsAt.getTime() })),
    ],
    bookedPerDay,
    now,
    from: window.start,
    until: window.end,
  };
}

export interface SlotList {
  callType: CallType;
  timeZone: string;
  paused: boolean;
  slots: { start: number; end: number; day: string }[];
  /**
   * The first instant at which the list may differ without any write (a slot leaves the minimum
   * notice, one enters the horizon, booking pauses): a page showing it is good until then. Null: only
   * a write changes it (booking is paused).
   */
  changesAt: number | null;
}

/** The slot cache's key: everything of a call type and the site that slots are computed from, but the stamped tables. */
function slotCacheKey(callType: CallType, timeZone: string): string {
  const { id, durationMinutes, incrementMinutes, bufferBeforeMinutes, bufferAfterMinutes, minimumNoticeMinutes, horizonDays, dailyCap } =
    callType;
  return JSON.stringify([
    id,
    timeZone,
    durationMinutes,
    incrementMinutes,
    bufferBeforeMinutes,
    bufferAfterMinutes,
    minimumNoticeMinutes,
    horizonDays,
    dailyCap,
  ]);
}

/**
 * The offered slots of a call type from now to its horizon (none while booking is paused): from the
 * slot cache at the database's slot stamp, or computed (always when a booking's own time is left
 * out, for rescheduling: such a list is good for this instant only). The pause is read on every call.
 */
export async function listSlots(db: Db, callType: CallType, now = Date.now(), exceptBookingId?: string): Promise<SlotList> {
  const timeZone = ownerTimeZone();
  const { paused, stamp, pausesAfter } = await slotState(db, now);
  if (paused) return { callType, timeZone, paused: true, slots: [], changesAt: null };
  if (exceptBookingId || stamp === null) {
    const input = await slotInputFor(db, callType, now, { start: now, end: now + callType.horizonDays * DAY_MS }, exceptBookingId);
    return { callType, timeZone, paused: false, slots: availableSlots(input), changesAt: now };
  }
  const window = { lead: callType.minimumNoticeMinutes * MINUTE_MS, reach: callType.horizonDays * DAY_MS };
  const { slots, changesAt } = await cachedSlots(db, slotCacheKey(callType, timeZone), stamp, now, window, async (wide) =>
    slotsStartingWithin(await slotInputFor(db, callType, now, wide), wide.start, wide.end),
  );
  // Paused once `now` is past the instant: the first millisecond after it.
  const pauses = pausesAfter === null ? Infinity : Math.floor(pausesAfter) + 1;
  return { callType, timeZone, paused: false, slots, changesAt: Math.min(changesAt, pauses) };
}

/** Throws unless `start` is offered now for the call type (400 with a message a visitor can act on). */
async function assertOffered(db: Db, callType: CallType, start: number, now: number, exceptBookingId?: string): Promise<void> {
  if ((await pausedFeeds(db, now)) > 0) throw new ConflictError(BOOKING_TEXT.paused);
  const input = await slotInputFor(db, callType, now, { start, end: start + 1 }, exceptBookingId);
  if (!isOfferedSlot(input, start)) {
    // Taken by a confirmed booking since the visitor saw it: say so; anything else is not on offer.
    const blocked = blockedInterval(start, callType);
    const clash = input.busy.some((b) => b.start < blocked.end && blocked.start < b.end);
    const withoutBusy = isOfferedSlot({ ...input, busy: [] }, start);
    if (clash && withoutBusy) throw new ConflictError(BOOKING_TEXT.taken);
    throw new ValidationError(BOOKING_TEXT.notOffered, { start: [BOOKING_TEXT.notOffered] });
  }
}

// ---- Signed links (confirmation, .ics, cancel, reschedule): the booking's id and an HMAC of it; they end at the call's start ----

async function linkSignature(db: Db, id: string): Promise<string> {
  return createHmac("sha256", await getAppSecret(db))
    .update(`booking:${id}`)
    .digest("base64url");
}

export async function bookingToken(db: Db, id: string): Promise<string> {
  return linkSignature(db, id);
}

async function checkToken(db: Db, id: string, token: string | null | undefined): Promise<void> {
  if (!z.uuid().safeParse(id).success || !token) throw new ForbiddenError(BOOKING_TEXT.badLink);
  const expected = Buffer.from(await linkSignature(db, id));
  const given = Buffer.from(token);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new ForbiddenError(BOOKING_TEXT.badLink);
}

export const bookingColumns = {
  id: bookings.id,
  callTypeId: bookings.callTypeId,
  startsAt: bookings.startsAt,
  endsAt: bookings.endsAt,
  status: bookings.status,
  sequence: bookings.sequence,
  rescheduleCount: bookings.rescheduleCount,
  name: bookings.name,
  email: bookings.email,
  phone: bookings.phone,
  company: bookings.company,
  topic: bookings.topic,
  notes: bookings.notes,
  visitorTimeZone: bookings.visitorTimeZone,
  cancelMessage: bookings.cancelMessage,
  noShow: bookings.noShow,
  createdAt: bookings.createdAt,
  updatedAt: bookings.updatedAt,
  cancelledAt: bookings.cancelledAt,
  callTypeName: bookingCallTypes.name,
  callTypeSlug: bookingCallTypes.slug,
  location: bookingCallTypes.location,
  videoUrl: bookingCallTypes.videoUrl,
};

export type Booking = Awaited<ReturnType<typeof findBooking>> & object;

async function findBooking(db: Db, id: string) {
  const [row] = await db
    .select(bookingColumns)
    .from(bookings)
    .innerJoin(bookingCallTypes, eq(bookingCallTypes.id, bookings.callTypeId))
    .where(eq(bookings.id, id));
  return row;
}

/** A booking through its signed link (the confirmation page, the .ics download); the link itself never expires for reading. */
export async function bookingByLink(db: Db, id: string, token: string | null | undefined): Promise<Booking> {
  await checkToken(db, id, token);
  const booking = await findBooking(db, id);
  if (!booking) throw new NotFoundError(BOOKING_TEXT.badLink);
  return booking;
}

/** A booking the visitor may still change: signed link, confirmed, and before the call's start. */
async function changeableBooking(db: Db, id: string, token: string | null | undefined, now: number): Promise<Booking> {
  const booking = await bookingByLink(db, id, token);
  if (booking.status !== "confirmed") throw new ConflictError(BOOKING_TEXT.cancelled);
  if (booking.startsAt.getTime() <= now) throw new ForbiddenError(BOOKING_TEXT.expiredLink);
  return booking;
}

// ---- Booking, rescheduling, cancelling ----

export interface CreatedBooking {
  id: string;
  token: string;
}

/**
 * Books a call: validate → human verification → rate limits (per IP and per email) → the slot is
 * offered now → insert, which the exclusion constraint refuses if another booking got there first.
 * A filled honeypot gets a made-up answer and books nothing.
 */
export async function createBooking(db: Db, body: unknown, ip: string, now = Date.now()): Promise<CreatedBooking> {
  const input = parseOrThrow(bookingRequestSchema, body, BOOKING_TEXT.invalid);
  const callType = await activeCallType(db, input.callType);
  const missing: Record<string, string[]> = {};
  if (callType.location === "phone" && !input.phone) missing.phone = ["Phone number is required for a phone call"];
  if (Object.keys(missing).length > 0) throw new ValidationError(BOOKING_TEXT.invalid, missing);
  const start = Date.parse(input.start);

  if (!input.verificationToken) throw new ForbiddenError(VERIFICATION_REQUIRED.description);
  await verifyHumanToken(db, input.verificationToken, ip);
  const env = getEnv();
  await enforceRateLimits(
    db,
    [
      { key: `booking:ip:${ip}`, limit: env.BOOKING_RATE_LIMIT_PER_HOUR, windowSeconds: 3600 },
      { key: `booking:email:${input.email.toLowerCase()}`, limit: env.BOOKING_RATE_LIMIT_PER_EMAIL_PER_DAY, windowSeconds: 86_400 },
    ],
    BOOKING_TEXT.rateLimited,
  );
  if (input.website) {
    logger.warn({ ip }, "booking honeypot filled; nothing booked");
    return { id: crypto.randomUUID(), token: "" };
  }
  await assertOffered(db, callType, start, now);

  const asked = new Set(callType.questions);
  const blocked = blockedInterval(start, callType);
  try {
    const id = await retryOnDeadlock(() =>
      db.transaction(async (tx) => {
        const [row] = await tx
          .insert(bookings)
          .values({
            callTypeId: callType.id,
            startsAt: new Date(start),
            endsAt: new Date(start + callType.durationMinutes * MINUTE_MS),
            blockedFrom: new Date(blocked.start),
            blockedUntil: new Date(blocked.end),
            name: input.name,
            email: input.email,
            phone: callType.location === "phone" ? (input.phone ?? null) : null,
            company: asked.has("company") ? (input.company ?? null) : null,
            topic: asked.has("topic") ? (input.topic ?? null) : null,
            notes: asked.has("notes") ? (input.notes ?? null) : null,
            visitorTimeZone: input.timeZone ?? null,
            ipAddress: ip,
          })
          .returning({ id: bookings.id });
        if (!row) throw new Error("booking insert returned no row");
        await enqueueBookingMails(tx, row.id, 0, "confirmed");
        await scheduleReminders(tx, row.id, 0, start, callType);
        await bumpContentVersion(tx);
        return row.id;
      }),
    );
    logger.info({ id, callType: callType.slug }, "call booked");
    return { id, token: await bookingToken(db, id) };
  } catch (error) {
    if (hasPgErrorCode(error, EXCLUSION_VIOLATION)) throw new ConflictError(BOOKING_TEXT.taken);
    throw error;
  }
}

/** Moves a booking to another offered time: same UID, SEQUENCE + 1, new emails and reminders. */
export async function rescheduleBooking(
  db: Db,
  id: string,
  token: string | null | undefined,
  startText: string,
  now = Date.now(),
): Promise<void> {
  const parsed = z.iso.datetime({ offset: true }).safeParse(startText);
  if (!parsed.success) throw new ValidationError(BOOKING_TEXT.notOffered, { start: [BOOKING_TEXT.notOffered] });
  const booking = await changeableBooking(db, id, token, now);
  const callType = await activeCallType(db, booking.callTypeSlug);
  const start = Date.parse(parsed.data);
  await assertOffered(db, callType, start, now, id);
  const blocked = blockedInterval(start, callType);
  try {
    await retryOnDeadlock(() =>
      db.transaction(async (tx) => {
        const [row] = await tx
          .update(bookings)
          .set({
            startsAt: new Date(start),
            endsAt: new Date(start + callType.durationMinutes * MINUTE_MS),
            blockedFrom: new Date(blocked.start),
            blockedUntil: new Date(blocked.end),
            sequence: sql`${bookings.sequence} + 1`,
            rescheduleCount: sql`${bookings.rescheduleCount} + 1`,
            updatedAt: sql`now()`,
          })
          .where(and(eq(bookings.id, id), eq(bookings.status, "confirmed"), eq(bookings.sequence, booking.sequence)))
          .returning({ sequence: bookings.sequence });
        if (!row) throw new ConflictError("This booking was changed meanwhile. Please reload the page.");
        await cancelReminders(tx, id, booking.sequence);
        await enqueueBookingMails(tx, id, row.sequence, "rescheduled");
        await scheduleReminders(tx, id, row.sequence, start, callType);
        await bumpContentVersion(tx);
      }),
    );
  } catch (error) {
    if (hasPgErrorCode(error, EXCLUSION_VIOLATION)) throw new ConflictError(BOOKING_TEXT.taken);
    throw error;
  }
}

async function cancel(db: Db, booking: Booking, by: "cancelled-by-visitor" | "cancelled-by-owner", message: string | null): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(bookings)
      .set({ status: by, sequence: sql`${bookings.sequence} + 1`, cancelMessage: message, cancelledAt: sql`now()`, updatedAt: sql`now()` })
      .where(and(eq(bookings.id, booking.id), eq(bookings.status, "confirmed")))
      .returning({ sequence: bookings.sequence });
    if (!row) throw new ConflictError(BOOKING_TEXT.cancelled);
    await cancelReminders(tx, booking.id, booking.sequence);
    await enqueueBookingMails(tx, booking.id, row.sequence, "cancelled");
    await bumpContentVersion(tx);
  });
}

/** The visitor cancels through the signed link (until the call starts). */
export async function cancelBookingByVisitor(db: Db, id: string, token: string | null | undefined, now = Date.now()): Promise<void> {
  await cancel(db, await changeableBooking(db, id, token, now), "cancelled-by-visitor", null);
}

const cancelMessageSchema = z.string().trim().max(1000, "The message must be at most 1000 characters");

/** The owner cancels, optionally with a message for the visitor. */
export async function cancelBookingByOwner(db: Db, actor: Actor | null, id: string, message: string): Promise<void> {
  authorize(actor, canManageBookings, BOOKINGS_FORBIDDEN);
  const text = parseOrThrow(cancelMessageSchema, message);
  const booking = await findBooking(db, id);
  if (!booking) throw new NotFoundError("Booking not found");
  await cancel(db, booking, "cancelled-by-owner", text || null);
}

/** Marks (or unmarks) a call as a no-show. */
export async function setNoShow(db: Db, actor: Actor | null, id: string, noShow: boolean): Promise<void> {
  authorize(actor, canManageBookings, BOOKINGS_FORBIDDEN);
  const updated = await db
    .update(bookings)
    .set({ noShow, updatedAt: sql`now()` })
    .where(eq(bookings.id, id))
    .returning({ id: bookings.id });
  if (updated.length === 0) throw new NotFoundError("Booking not found");
}

/** The admin's list: upcoming (ascending) or past (newest first), at most `limit`. */
export async function listBookings(db: Db, actor: Actor | null, when: "upcoming" | "past", limit = 100, now = Date.now()) {
  authorize(actor, canManageBookings, BOOKINGS_FORBIDDEN);
  const at = new Date(now);
  return db
    .select(bookingColumns)
    .from(bookings)
    .innerJoin(bookingCallTypes, eq(bookingCallTypes.id, bookings.callTypeId))
    .where(when === "upcoming" ? gte(bookings.endsAt, at) : lt(bookings.endsAt, at))
    .orderBy(when === "upcoming" ? asc(bookings.startsAt) : sql`${bookings.startsAt} desc`)
    .limit(limit);
}

/** Every booking (any status) starting in [from, until), by start: the admin's month calendar. */
export async function bookingsStartingBetween(db: Db, actor: Actor | null, from: Date, until: Date) {
  authorize(actor, canManageBookings, BOOKINGS_FORBIDDEN);
  return db
    .select({
      id: bookings.id,
      startsAt: bookings.startsAt,
      status: bookings.status,
      name: bookings.name,
      callTypeName: bookingCallTypes.name,
    })
    .from(bookings)
    .innerJoin(bookingCallTypes, eq(bookingCallTypes.id, bookings.callTypeId))
    .where(and(gte(bookings.startsAt, from), lt(bookings.startsAt, until)))
    .orderBy(asc(bookings.startsAt))
    .limit(MONTH_MAX_BOOKINGS);
}

/** Six weeks of calls at most this many (a day's cap is 100 per call type): the calendar never grows unbounded. */
const MONTH_MAX_BOOKINGS = 3000;

/** The dashboard's "Upcoming calls": how many confirmed calls lie ahead, and the next three. */
export async function upcomingCalls(db: Db, actor: Actor | null, now = Date.now()) {
  authorize(actor, canManageBookings, BOOKINGS_FORBIDDEN);
  // One statement: the window's count is taken over every row that matches, before the limit
  // (every booking has its call type: the join drops none).
  const rows = await db
    .select({
      id: bookings.id,
      startsAt: bookings.startsAt,
      name: bookings.name,
      callTypeName: bookingCallTypes.name,
      total: sql<number>`(count(*) over ())::int`,
    })
    .from(bookings)
    .innerJoin(bookingCallTypes, eq(bookingCallTypes.id, bookings.callTypeId))
    .where(and(eq(bookings.status, "confirmed"), gte(bookings.endsAt, new Date(now))))
    .orderBy(asc(bookings.startsAt))
    .limit(3);
  return { total: rows[0]?.total ?? 0, next: rows.map(({ total: _total, ...call }) => call) };
}

// ---- Emails and reminders: jobs on the one runner (at-least-once; a crash between send and done may repeat one) ----

const MAIL_EVENTS = ["confirmed", "rescheduled", "cancelled", "reminder-24h", "reminder-1h"] as const;
type MailEvent = (typeof MAIL_EVENTS)[number];

const mailPayload = z.object({
  bookingId: z.uuid(),
  sequence: z.number().int().min(0),
  event: z.enum(MAIL_EVENTS),
  audience: z.enum(["visitor", "owner"]),
});

async function enqueueBookingMails(tx: Db, bookingId: string, sequence: number, event: MailEvent): Promise<void> {
  for (const audience of ["visitor", "owner"] as const) {
    const to = audience === "visitor" ? await visitorAddress(tx, bookingId) : ownerAddress();
    await bookingMail.enqueue(
      tx,
      { to, payload: { bookingId, sequence, event, audience } },
      { key: `booking-mail:${bookingId}:${sequence}:${event}:${audience}` },
    );
  }
}

/** The visitor's address a booking's email is enqueued for (the mail log shows it). */
async function visitorAddress(db: Db, bookingId: string): Promise<string> {
  const [row] = await db.select({ email: bookings.email }).from(bookings).where(eq(bookings.id, bookingId));
  if (!row) throw new NotFoundError("This booking does not exist.");
  return row.email;
}

const reminderKey = (bookingId: string, sequence: number, which: "24h" | "1h") => `booking-reminder:${bookingId}:${sequence}:${which}`;

async function scheduleReminders(tx: Db, bookingId: string, sequence: number, start: number, callType: CallType): Promise<void> {
  const plan = [
    { which: "24h" as const, on: callType.remind24h, at: start - DAY_MS },
    { which: "1h" as const, on: callType.remind1h, at: start - 3_600_000 },
  ];
  // "Passed" by the database's clock, the one the outbox sends by: this process's clock may be ahead
  // of it (a reminder still due would be dropped) or behind (one already past would go out late).
  const [clock] = await tx
    .select({ nowMs: sql<number>`extract(epoch from now()) * 1000`.mapWith(Number) })
    .from(bookings)
    .where(eq(bookings.id, bookingId));
  const now = clock?.nowMs ?? Date.now();
  for (const { which, on, at } of plan) {
    // A reminder whose time has passed at booking is not sent (the confirmation just went out).
    if (!on || at <= now) continue;
    await bookingMail.enqueue(
      tx,
      { to: await visitorAddress(tx, bookingId), payload: { bookingId, sequence, event: `reminder-${which}`, audience: "visitor" } },
      { key: reminderKey(bookingId, sequence, which), runAt: new Date(at) },
    );
  }
}

async function cancelReminders(tx: Db, bookingId: string, sequence: number): Promise<void> {
  await cancelMail(tx, reminderKey(bookingId, sequence, "24h"));
  await cancelMail(tx, reminderKey(bookingId, sequence, "1h"));
}

/** Where the owner's booking emails go: the contact address (CONTACT_TO), else the sender's. */
function ownerAddress(): string {
  const env = getEnv();
  return env.CONTACT_TO ?? mailFromAddress(env.MAIL_FROM);
}

const LOCATION_TEXT = {
  video: (b: Booking) => b.videoUrl ?? "Video call",
  phone: (b: Booking) => `Phone call to ${b.phone ?? "your number"}`,
  "link-later": () => "I will send you a link before the call.",
} as const;

/** What every invite of this site shares: the event UIDs' host, the organizer and the owner's zone. */
export async function inviteContext(db: Db) {
  const settings = await readSiteSettings(db);
  const owner = settings.ownerName || settings.siteName;
  return {
    siteName: settings.siteName,
    host: new URL(emailSiteUrl(settings)).hostname,
    organizer: { name: owner, email: ownerAddress() },
    timeZone: ownerTimeZone(),
  };
}

export type InviteContext = Awaited<ReturnType<typeof inviteContext>>;

/** The visitor's answers as lines of text (the invite's description). */
function answerLines(booking: Booking): string[] {
  return [booking.topic ? `Topic: ${booking.topic}` : "", booking.company ? `Company: ${booking.company}` : "", booking.notes ?? ""].filter(
    Boolean,
  );
}

/**
 * The booking as an iCalendar event (UTC times, the owner's zone named in the text). The owner's
 * copy (`forOwner`, the private feed) also names the visitor, their phone and zone and the status.
 */
export function inviteEventFor(booking: Booking, context: InviteContext, { forOwner = false } = {}): InviteEvent {
  const ownerLines = forOwner
    ? [
        `Visitor: ${booking.name} <${booking.email}>`,
        ...(booking.phone ? [`Phone: ${booking.phone}`] : []),
        ...(booking.visitorTimeZone ? [`Visitor's time zone: ${booking.visitorTimeZone}`] : []),
      ]
    : [];
  const statusLines =
    forOwner && booking.status !== "confirmed"
      ? [
          booking.status === "cancelled-by-visitor" ? "Cancelled by the visitor." : "Cancelled by you.",
          ...(booking.cancelMessage ? [`Message: ${booking.cancelMessage}`] : []),
        ]
      : [];
  return {
    uid: `${booking.id}@${context.host}`,
    sequence: booking.sequence,
    start: booking.startsAt,
    end: booking.endsAt,
    summary: `${booking.callTypeName}: ${context.organizer.name} and ${booking.name}`,
    location: LOCATION_TEXT[booking.location](booking),
    description: [...statusLines, ...ownerLines, ...answerLines(booking)].join("\n"),
    cancelled: booking.status !== "confirmed",
    organizer: context.organizer,
    attendee: { name: booking.name, email: booking.email },
    timeZone: context.timeZone,
    updatedAt: booking.updatedAt,
  };
}

/** The booking as the visitor's iCalendar event. */
export async function inviteEventOf(db: Db, booking: Booking): Promise<InviteEvent> {
  return inviteEventFor(booking, await inviteContext(db));
}

/** The booking's own links (confirmation page, .ics, cancel and reschedule), absolute for emails. */
export async function bookingLinks(db: Db, booking: Pick<Booking, "id">, base: string) {
  const token = await bookingToken(db, booking.id);
  const q = `?t=${encodeURIComponent(token)}`;
  return {
    confirmation: `${base}/book/confirmed/${booking.id}${q}`,
    ics: `${base}/book/ics/${booking.id}${q}`,
    manage: `${base}/book/manage/${booking.id}${q}`,
  };
}

export function googleLinkOf(event: InviteEvent): string {
  return googleCalendarLink(event);
}

const SUBJECTS: Record<MailEvent, (b: Booking, audience: "visitor" | "owner") => string> = {
  confirmed: (b, a) => (a === "owner" ? `New booking: ${b.callTypeName} with ${b.name}` : `Confirmed: ${b.callTypeName}`),
  rescheduled: (b, a) => (a === "owner" ? `Rescheduled: ${b.callTypeName} with ${b.name}` : `New time: ${b.callTypeName}`),
  cancelled: (b, a) => (a === "owner" ? `Cancelled: ${b.callTypeName} with ${b.name}` : `Cancelled: ${b.callTypeName}`),
  "reminder-24h": (b) => `Tomorrow: ${b.callTypeName}`,
  "reminder-1h": (b) => `In one hour: ${b.callTypeName}`,
};

export const bookingMail = defineMailKind("booking.mail", {
  label: "Booking",
  schema: mailPayload,
  render: async ({ bookingId, sequence, event, audience }, { db }) => {
    const booking = await findBooking(db, bookingId);
    if (!booking) return { skip: "The booking no longer exists." };
    // A later change superseded this email (its own email carries the newer state).
    if (booking.sequence !== sequence) return { skip: "The booking changed since; a newer email was sent." };
    if (event !== "cancelled" && booking.status !== "confirmed") return { skip: "The call was cancelled." };
    const settings = await readSiteSettings(db);
    const base = emailSiteUrl(settings);
    const invite = await inviteEventOf(db, booking);
    const links = await bookingLinks(db, booking, base);
    const method: InviteMethod = event === "cancelled" ? "CANCEL" : "REQUEST";
    const visitorZone = booking.visitorTimeZone ?? ownerTimeZone();
    const when = (zone: string) =>
      new Intl.DateTimeFormat("en-US", { timeZone: zone, dateStyle: "full", timeStyle: "short" }).format(booking.startsAt);
    const lines = [
      event === "cancelled" ? `This call was cancelled: ${booking.callTypeName}.` : `${booking.callTypeName}`,
      "",
      `When: ${when(audience === "visitor" ? visitorZone : ownerTimeZone())} (${audience === "visitor" ? visitorZone : ownerTimeZone()})`,
      `Owner's time: ${when(ownerTimeZone())} (${ownerTimeZone()})`,
      `Where: ${invite.location}`,
      ...(booking.cancelMessage && event === "cancelled" ? ["", `Message: ${booking.cancelMessage}`] : []),
      "",
      ...(audience === "visitor"
        ? event === "cancelled"
          ? [`Book another time: ${base}/book`]
          : [
              `Add to Google Calendar: ${googleCalendarLink(invite)}`,
              `Download .ics: ${links.ics}`,
              `Cancel or reschedule: ${links.manage}`,
            ]
        : [
            `Visitor: ${booking.name} <${booking.email}>`,
            ...(booking.phone ? [`Phone: ${booking.phone}`] : []),
            invite.description,
            "",
            `Bookings: ${base}/admin/bookings`,
          ]),
    ];
    return {
      to: audience === "visitor" ? booking.email : ownerAddress(),
      ...(audience === "owner" ? { replyTo: booking.email } : {}),
      subject: SUBJECTS[event](booking, audience),
      text: lines.join("\n"),
      icalEvent: { method, filename: event === "cancelled" ? "cancel.ics" : "invite.ics", content: calendarText(method, [invite]) },
      senderName: settings.siteName,
    };
  },
});
