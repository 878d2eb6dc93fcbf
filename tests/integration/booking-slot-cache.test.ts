import { eq, sql } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { activeCallType, listSlots, type CallType } from "~/features/booking/booking.server";
import { SLOT_CACHE_SPAN_MS } from "~/features/booking/slot-cache.server";
import { blockedInterval } from "~/features/booking/slots";
import type { Db } from "~/server/db/client.server";
import * as schema from "~/server/db/schema.server";
import { bookingSuiteEnv } from "../helpers/booking";
import { describeEachDatabase } from "../helpers/databases";

/**
 * The slot cache (docs/decisions/0082-slot-cache.md): the slots listed at any moment are those
 * computed afresh at that moment, and a write to anything slots are computed from — even one
 * straight into a table, past the app's code — is seen by the very next listing.
 */
bookingSuiteEnv();

const MINUTE = 60_000;
const now = Date.parse("2030-03-04T08:07:13.250Z");
// A booking id that matches nothing: listSlots with it computes afresh, past the cache.
const NO_BOOKING = "00000000-0000-4000-8000-000000000000";

const starts = async (db: Db, callType: CallType, at = now) => (await listSlots(db, callType, at)).slots.map((s) => s.start);
const freshStarts = async (db: Db, callType: CallType, at = now) =>
  (await listSlots(db, callType, at, NO_BOOKING)).slots.map((s) => s.start);
async function stamp(db: Db): Promise<string | undefined> {
  const [row] = await db.select({ stamp: schema.bookingSlotStamp.stamp }).from(schema.bookingSlotStamp);
  return row?.stamp;
}

describeEachDatabase("booking slot cache", (ctx) => {
  let callType: CallType;
  beforeAll(async () => {
    await ctx.db.insert(schema.bookingCallTypes).values({
      slug: "cached",
      name: "Cached call",
      durationMinutes: 30,
      incrementMinutes: 15,
      bufferAfterMinutes: 10,
      minimumNoticeMinutes: 90,
      horizonDays: 9,
      displayOrder: 0,
    });
    await ctx.db
      .insert(schema.bookingWeeklyHours)
      .values([1, 2, 3, 4, 5].map((weekday) => ({ weekday, startMinute: 8 * 60, endMinute: 18 * 60 })));
    callType = await activeCallType(ctx.db, "cached");
  });

  it("lists at every moment of an entry's span exactly the slots computed afresh then", async () => {
    const first = await starts(ctx.db, callType);
    expect(first.length).toBeGreaterThan(100);
    // Just before and after a slot leaves the minimum notice, and at the horizon's end.
    const edge = (first[0] ?? 0) - 90 * MINUTE;
    for (const at of [now, now + 1, edge - 1, edge, edge + 1, now + 7 * MINUTE, now + SLOT_CACHE_SPAN_MS - 1, now + SLOT_CACHE_SPAN_MS]) {
      expect(await starts(ctx.db, callType, at)).toEqual(await freshStarts(ctx.db, callType, at));
    }
    // A moment before the entry's own is computed for itself too.
    expect(await starts(ctx.db, callType, now - 45 * MINUTE)).toEqual(await freshStarts(ctx.db, callType, now - 45 * MINUTE));
  });

  it("names the first instant the listing changes without a write: the same slots a millisecond before, others at it", async () => {
    const first = await starts(ctx.db, callType);
    const edge = (first[0] ?? 0) - 90 * MINUTE;
    // Through the morning (slots leave the notice), the evening (none leave; the horizon's end gains
    // none either), a Saturday morning (none leave till Monday; the horizon's end, a Monday, gains
    // one at 07:00 UTC) and an entry's end.
    const saturday = Date.parse("2030-03-09T06:50:00Z");
    for (const at of [now, edge, edge + 1, now + 5 * 60 * MINUTE, now + 11 * 60 * MINUTE, now + 14 * MINUTE, saturday]) {
      // A write that changes no value renews the stamp: the entry is computed at `at`, its span from there.
      await ctx.db.update(schema.bookingWeeklyHours).set({ startMinute: sql`${schema.bookingWeeklyHours.startMinute}` });
      const { slots, changesAt } = await listSlots(ctx.db, callType, at);
      expect(changesAt).not.toBeNull();
      const change = changesAt ?? 0;
      expect(change).toBeGreaterThan(at);
      expect(await freshStarts(ctx.db, callType, change - 1)).toEqual(slots.map((s) => s.start));
      // Before the slot cache's span ends, the instant named is one where the slots differ.
      if (change < at + SLOT_CACHE_SPAN_MS) expect(await freshStarts(ctx.db, callType, change)).not.toEqual(slots.map((s) => s.start));
      if (at === saturday) expect(change).toBe(Date.parse("2030-03-09T07:00:00.001Z"));
    }
  });

  it("names when booking pauses as the listing's change, and nothing while it is paused", async () => {
    const [feed] = await ctx.db
      .insert(schema.bookingCalendarFeeds)
      .values({ label: "Soon", url: "http://127.0.0.1:9/busy.ics", refreshMinutes: 10, lastSuccessAt: new Date(now - 29 * MINUTE) })
      .returning({ id: schema.bookingCalendarFeeds.id });
    try {
      expect((await listSlots(ctx.db, callType, now)).changesAt).toBe(now + MINUTE + 1);
      expect((await listSlots(ctx.db, callType, now + MINUTE)).paused).toBe(false);
      const paused = await listSlots(ctx.db, callType, now + MINUTE + 1);
      expect([paused.paused, paused.changesAt]).toEqual([true, null]);
    } finally {
      await ctx.db.delete(schema.bookingCalendarFeeds).where(eq(schema.bookingCalendarFeeds.id, feed?.id ?? ""));
    }
  });

  it("sees a write to anything slots are computed from at once, even one straight into a table", async () => {
    const before = await starts(ctx.db, callType);
    const target = before[20] ?? 0;
    const first = await stamp(ctx.db);

    // A booking (no app code, so no content version bump): its time and the times its buffer touches go.
    const blocked = blockedInterval(target, callType);
    const [booked] = await ctx.db
      .insert(schema.bookings)
      .values({
        callTypeId: callType.id,
        startsAt: new Date(target),
        endsAt: new Date(target + 30 * MINUTE),
        blockedFrom: new Date(blocked.start),
        blockedUntil: new Date(blocked.end),
        name: "Direct Visitor",
        email: "direct@example.com",
      })
      .returning({ id: schema.bookings.id });
    expect(await stamp(ctx.db)).not.toBe(first);
    const afterBooking = await starts(ctx.db, callType);
    expect(afterBooking).not.toContain(target);
    expect(afterBooking).toEqual(await freshStarts(ctx.db, callType));

    // Cancelled: offered again.
    await ctx.db
      .update(schema.bookings)
      .set({ status: "cancelled-by-owner" })
      .where(eq(schema.bookings.id, booked?.id ?? ""));
    expect(await starts(ctx.db, callType)).toContain(target);

    // Busy times from a feed (read a moment ago, so booking is not paused).
    const [feed] = await ctx.db
      .insert(schema.bookingCalendarFeeds)
      .values({ label: "Work", url: "http://127.0.0.1:9/busy.ics", lastAttemptAt: new Date(now), lastSuccessAt: new Date(now) })
      .returning({ id: schema.bookingCalendarFeeds.id });
    await ctx.db
      .insert(schema.bookingBusyTimes)
      .values({ feedId: feed?.id ?? "", startsAt: new Date(target), endsAt: new Date(target + 60 * MINUTE) });
    expect(await starts(ctx.db, callType)).not.toContain(target);
    await ctx.db.delete(schema.bookingCalendarFeeds).where(eq(schema.bookingCalendarFeeds.id, feed?.id ?? ""));
    expect(await starts(ctx.db, callType)).toContain(target);

    // A day off, then other weekly hours.
    const day = new Date(target).toISOString().slice(0, 10);
    await ctx.db.insert(schema.bookingDateOverrides).values({ firstDay: day, lastDay: day, startMinute: null, endMinute: null });
    expect(await starts(ctx.db, callType)).not.toContain(target);
    await ctx.db.delete(schema.bookingDateOverrides);
    await ctx.db.delete(schema.bookingWeeklyHours);
    await ctx.db.insert(schema.bookingWeeklyHours).values({ weekday: 6, startMinute: 0, endMinute: 1440 });
    const saturdays = await starts(ctx.db, callType);
    expect(saturdays.length).toBeGreaterThan(0);
    expect(saturdays.every((s) => new Date(s + 3_600_000).getUTCDay() === 6)).toBe(true);

    // The call type's own rules (as the caller read them) are part of the cache's key.
    const capped = await starts(ctx.db, { ...callType, dailyCap: 0 });
    expect(capped).toEqual([]);
    expect(await starts(ctx.db, callType)).toEqual(saturdays);
  });
});
