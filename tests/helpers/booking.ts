import { eq } from "drizzle-orm";
import { expect } from "vitest";
import { activeCallType, listSlots } from "~/features/booking/booking.server";
import { blockedInterval } from "~/features/booking/slots";
import type { Db } from "~/server/db/client.server";
import { bookingCallTypes, bookings, bookingWeeklyHours } from "~/server/db/schema.server";
import { suiteEnv } from "./suite-env";

export const OPEN_ALL_WEEK = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"].map((d) => `${d} 00:00-24:00`).join("\n");

/**
 * A call type bookable at any half hour of the next 30 days (no notice, no cap, no buffers, unless
 * `rules` say otherwise), with weekly hours around the clock; made once per database.
 */
export async function openCallType(db: Db, slug = "open-call", rules: Partial<typeof bookingCallTypes.$inferInsert> = {}) {
  const [found] = await db.select({ id: bookingCallTypes.id }).from(bookingCallTypes).where(eq(bookingCallTypes.slug, slug));
  if (!found) {
    await db.insert(bookingCallTypes).values({
      slug,
      name: "Open call",
      durationMinutes: 30,
      incrementMinutes: 30,
      minimumNoticeMinutes: 0,
      horizonDays: 30,
      remind24h: false,
      remind1h: false,
      ...rules,
    });
    await db.delete(bookingWeeklyHours);
    await db.insert(bookingWeeklyHours).values([1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, startMinute: 0, endMinute: 1440 })));
  }
  return activeCallType(db, slug);
}

let picked = 0;

/** A different free slot of the open call type at each call (well ahead of now). */
export async function freeSlot(db: Db): Promise<{ slug: string; start: number }> {
  const callType = await openCallType(db);
  const { slots } = await listSlots(db, callType);
  const slot = slots[48 + ((picked += 7) % (slots.length - 48))];
  if (!slot) throw new Error("no free slot");
  return { slug: callType.slug, start: slot.start };
}

/** A confirmed booking of a free slot, written straight to the table (no mail); its id. */
export async function makeBooking(db: Db, email = `visitor-${Date.now()}-${picked}@example.com`): Promise<string> {
  const { slug, start } = await freeSlot(db);
  const callType = await activeCallType(db, slug);
  const blocked = blockedInterval(start, callType);
  const [row] = await db
    .insert(bookings)
    .values({
      callTypeId: callType.id,
      startsAt: new Date(start),
      endsAt: new Date(start + callType.durationMinutes * 60_000),
      blockedFrom: new Date(blocked.start),
      blockedUntil: new Date(blocked.end),
      name: "Matrix Visitor",
      email,
    })
    .returning({ id: bookings.id });
  if (!row) throw new Error("no booking");
  return row.id;
}

/**
 * The booking suites' environment, set before the suite and put back after it: the site's zone is
 * Europe/Berlin (so a day in the site's zone differs from UTC), logs are silent, plus `extra`.
 */
export function bookingSuiteEnv(extra: Record<string, string> = {}): void {
  suiteEnv({ SITE_TIME_ZONE: "Europe/Berlin", LOG_LEVEL: "silent", ...extra });
}

/**
 * The slots offered around the busy-time fixture's events (tests/fixtures/booking/busy.ics; the CalDAV
 * test serves the same ones): the weekly Monday call at 10:00 Berlin is taken, the excluded Monday and
 * the moved occurrence's old time are free, its new time is taken, and so is the all-day event's day.
 */
export function expectFixtureBusyTimesAvoided(offered: number[]): void {
  expect(offered).not.toContain(Date.parse("2030-01-07T09:00:00Z"));
  expect(offered).toContain(Date.parse("2030-01-14T09:00:00Z"));
  expect(offered).toContain(Date.parse("2030-01-21T09:00:00Z"));
  expect(offered).not.toContain(Date.parse("2030-01-21T14:00:00Z"));
  expect(offered.filter((s) => s >= Date.parse("2030-01-09T23:00:00Z") && s < Date.parse("2030-01-10T23:00:00Z"))).toEqual([]);
}
