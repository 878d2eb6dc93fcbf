import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BOOKING_TEXT } from "~/features/booking/booking-schema";
import {
  activeCallType,
  bookingToken,
  cancelBookingByOwner,
  cancelBookingByVisitor,
  createBooking,
  listSlots,
  rescheduleBooking,
  type CallType,
} from "~/features/booking/booking.server";
import { bookingCallTypes, bookings, bookingWeeklyHours, mailOutbox } from "~/server/db/schema.server";
import { resetEnvForTests } from "~/server/env.server";
import { isAppError } from "~/server/errors.server";
import { MailOutbox } from "~/server/mail-outbox.server";
import { easyVerificationToken, waitFor } from "../helpers/contact";
import { parseInvite } from "../helpers/invite";
import { describeEachDatabase } from "../helpers/databases";
import { useSmtpServer } from "../helpers/smtp-suite";

/**
 * Booking on the database: the exclusion constraint lets exactly one of many concurrent requests
 * for one time through, bad input changes nothing, and the emails carry invites a real iCalendar
 * parser reads, with one UID and a rising SEQUENCE.
 */
const saved = { ...process.env };
beforeAll(() => {
  process.env.AUTH_SECRET = "booking-test-secret-0123456789abcdef";
  process.env.LOG_LEVEL = "silent";
  process.env.SITE_TIME_ZONE = "Europe/Berlin";
  process.env.CONTACT_TO = "owner@example.com";
  // Rate limits are tested below with their own keys; the concurrency test uses one address per request.
  process.env.BOOKING_RATE_LIMIT_PER_HOUR = "2";
  process.env.BOOKING_RATE_LIMIT_PER_EMAIL_PER_DAY = "2";
  resetEnvForTests();
});
afterAll(() => {
  process.env = saved;
  resetEnvForTests();
});

let ipCounter = 0;
const nextIp = () => `10.0.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

async function refusal(promise: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (isAppError(error)) return { status: error.status, message: error.message };
    throw error;
  }
  throw new Error("expected a refusal");
}

describeEachDatabase("booking", (ctx) => {
  const smtp = useSmtpServer();
  let intro: CallType;
  let deep: CallType;
  beforeAll(async () => {
    await ctx.db.insert(bookingCallTypes).values([
      {
        slug: "intro",
        name: "Intro call",
        durationMinutes: 30,
        incrementMinutes: 30,
        bufferAfterMinutes: 15,
        minimumNoticeMinutes: 60,
        horizonDays: 14,
        questions: ["company", "notes"],
        displayOrder: 0,
      },
      {
        slug: "deep",
        name: "Deep dive",
        durationMinutes: 60,
        incrementMinutes: 60,
        minimumNoticeMinutes: 60,
        horizonDays: 14,
        displayOrder: 1,
      },
    ]);
    await ctx.db.insert(bookingWeeklyHours).values([1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, startMinute: 0, endMinute: 1440 })));
    intro = await activeCallType(ctx.db);
    deep = await activeCallType(ctx.db, "deep");
  });

  const request = async (callType: string, start: number, extra: Record<string, unknown> = {}) => ({
    callType,
    start: new Date(start).toISOString(),
    name: "Ada Visitor",
    email: `ada+${++ipCounter}@example.com`,
    timeZone: "America/Los_Angeles",
    verificationToken: await easyVerificationToken(ctx.db),
    ...extra,
  });

  it("lets exactly one of 50 concurrent requests for one slot through; 49 hear that it was just taken", async () => {
    const { slots } = await listSlots(ctx.db, intro);
    const slot = slots[10];
    if (!slot) throw new Error("no slot offered");
    const bodies = await Promise.all(Array.from({ length: 50 }, () => request("intro", slot.start)));
    const results = await Promise.allSettled(bodies.map((body) => createBooking(ctx.db, body, nextIp())));
    const ok = results.filter((r) => r.status === "fulfilled");
    const refused = results.flatMap((r) => (r.status === "rejected" ? [r.reason as unknown] : []));
    expect(ok).toHaveLength(1);
    expect(refused).toHaveLength(49);
    // A refusal for any other reason names itself (status, code and message), so a rare one can be told apart.
    for (const error of refused) {
      const described = isAppError(error)
        ? `${error.status} ${error.message}`
        : error instanceof Error
          ? `${error.name}: ${error.message}`
          : String(error);
      const code = (error as { code?: unknown; cause?: { code?: unknown } }).code ?? (error as { cause?: { code?: unknown } }).cause?.code;
      expect(isAppError(error) && error.status === 409 && error.message === BOOKING_TEXT.taken, `${described} (code ${String(code)})`).toBe(
        true,
      );
    }
    const [{ count } = { count: -1 }] = await ctx.db
      .select({ count: sql<number>`count(*)::int` })
      .from(bookings)
      .where(eq(bookings.startsAt, new Date(slot.start)));
    expect(count).toBe(1);
    // The slot and the times its buffer touches are no longer offered.
    const after = (await listSlots(ctx.db, intro)).slots.map((s) => s.start);
    expect(after).not.toContain(slot.start);
  });

  it("refuses an overlap between call types, buffers included, in the database itself", async () => {
    const { slots } = await listSlots(ctx.db, deep);
    const slot = slots[30];
    if (!slot) throw new Error("no slot offered");
    await createBooking(ctx.db, await request("deep", slot.start), nextIp());
    // 30-minute intro calls ending inside the deep dive, or whose 15-minute buffer reaches into it.
    const introStarts = (await listSlots(ctx.db, intro)).slots.map((s) => s.start);
    expect(introStarts).not.toContain(slot.start - 30 * 60_000 + 30 * 60_000);
    expect(introStarts).not.toContain(slot.start - 30 * 60_000);
    expect(introStarts).toContain(slot.start + 60 * 60_000);
    // Written straight into the table (no slot check): the exclusion constraint still refuses it.
    const insert = ctx.db.insert(bookings).values({
      callTypeId: intro.id,
      startsAt: new Date(slot.start - 30 * 60_000),
      endsAt: new Date(slot.start),
      blockedFrom: new Date(slot.start - 30 * 60_000),
      blockedUntil: new Date(slot.start + 15 * 60_000),
      name: "Direct",
      email: "direct@example.com",
    });
    await expect(insert).rejects.toThrow();
  });

  it("answers bad input with a clear 4xx and books nothing", async () => {
    const before = await ctx.db.select({ count: sql<number>`count(*)::int` }).from(bookings);
    const now = Date.now();
    const offered = (await listSlots(ctx.db, intro)).slots[40];
    if (!offered) throw new Error("no slot offered");
    const cases: Array<[string, Record<string, unknown>, number]> = [
      ["in the past", await request("intro", Math.floor(now / 3_600_000) * 3_600_000 - 3_600_000), 400],
      ["within the minimum notice", await request("intro", Math.ceil(now / 1_800_000) * 1_800_000), 400],
      ["off the increment", await request("intro", offered.start + 60_000), 400],
      ["beyond the horizon", await request("intro", offered.start + 30 * 86_400_000), 400],
      ["an unknown call type", await request("nope", offered.start), 404],
      ["an oversized answer", await request("intro", offered.start, { notes: "x".repeat(2001) }), 400],
      ["no verification", await request("intro", offered.start, { verificationToken: "" }), 403],
      ["a bad email", await request("intro", offered.start, { email: "not-an-email" }), 400],
    ];
    for (const [what, body, status] of cases) {
      const answer = await refusal(createBooking(ctx.db, body, nextIp()));
      expect({ what, status: answer.status }).toEqual({ what, status });
      expect(answer.message.length).toBeGreaterThan(10);
    }
    const after = await ctx.db.select({ count: sql<number>`count(*)::int` }).from(bookings);
    expect(after).toEqual(before);
  });

  it("limits bookings per address and per email", async () => {
    const slots = (await listSlots(ctx.db, intro)).slots;
    const ip = nextIp();
    await createBooking(ctx.db, await request("intro", slots[50]?.start ?? 0), ip);
    await createBooking(ctx.db, await request("intro", slots[52]?.start ?? 0), ip);
    expect((await refusal(createBooking(ctx.db, await request("intro", slots[54]?.start ?? 0), ip))).status).toBe(429);
    const email = "same@example.com";
    await createBooking(ctx.db, await request("intro", slots[56]?.start ?? 0, { email }), nextIp());
    await createBooking(ctx.db, await request("intro", slots[58]?.start ?? 0, { email }), nextIp());
    expect((await refusal(createBooking(ctx.db, await request("intro", slots[60]?.start ?? 0, { email }), nextIp()))).status).toBe(429);
  });

  describe("emails, reschedule and cancel", () => {
    let runner: MailOutbox;
    beforeAll(async () => {
      runner = new MailOutbox({ db: () => ctx.db, pollMs: 100 });
      await runner.start();
    });
    afterAll(async () => {
      await runner.stop();
    });

    const eventsTo = (address: string, id: string) =>
      smtp.received
        .filter((m) => m.to.includes(address) && m.raw.includes(id))
        .map((m) => {
          const unfolded = m.raw.replace(/=\r?\n/g, "");
          const begin = unfolded.indexOf("BEGIN:VCALENDAR");
          const end = unfolded.indexOf("END:VCALENDAR", begin);
          const text = unfolded.slice(begin, end + "END:VCALENDAR".length).replace(/=3D/g, "=");
          return parseInvite(text);
        });

    it("sends invites to visitor and owner, then SEQUENCE+1 on reschedule and METHOD:CANCEL on cancel, with one UID", async () => {
      const slots = (await listSlots(ctx.db, intro)).slots;
      const [first, second] = [slots[70], slots[80]];
      if (!first || !second) throw new Error("no slots");
      const body = await request("intro", first.start, { email: "grace@example.com" });
      const { id, token } = await createBooking(ctx.db, body, nextIp());
      const invites = await waitFor(
        () => {
          const v = eventsTo("grace@example.com", id.slice(0, 8));
          const o = eventsTo("owner@example.com", id.slice(0, 8));
          return v.length >= 1 && o.length >= 1 ? { v, o } : undefined;
        },
        15_000,
        "confirmation emails",
      );
      const [invite] = invites.v;
      expect(invite).toMatchObject({ method: "REQUEST", sequence: 0, status: "CONFIRMED", start: first.start });
      expect(invite?.organizer).toBe("mailto:owner@example.com");
      expect(invite?.attendee).toBe("mailto:grace@example.com");
      expect(invites.o[0]?.uid).toBe(invite?.uid);
      // Mail apps show the event from a text/calendar part carrying its METHOD, plus the .ics file.
      const mailTo = (address: string, name: string) =>
        smtp.received.find((m) => m.to.includes(address) && m.raw.includes(id.slice(0, 8)) && m.raw.includes(name))?.raw ?? "";
      expect(mailTo("grace@example.com", "invite.ics")).toMatch(/Content-Type: text\/calendar;[^\r\n]*method=REQUEST/i);
      expect(mailTo("grace@example.com", "invite.ics")).toMatch(/name="?invite\.ics/i);

      await rescheduleBooking(ctx.db, id, token, new Date(second.start).toISOString());
      const moved = await waitFor(
        () => eventsTo("grace@example.com", id.slice(0, 8)).find((e) => e.sequence === 1),
        15_000,
        "reschedule email",
      );
      expect(moved).toMatchObject({ method: "REQUEST", uid: invite?.uid, start: second.start, status: "CONFIRMED" });

      await cancelBookingByVisitor(ctx.db, id, token);
      const cancelled = await waitFor(
        () => eventsTo("grace@example.com", id.slice(0, 8)).find((e) => e.sequence === 2),
        15_000,
        "cancel email",
      );
      expect(cancelled).toMatchObject({ method: "CANCEL", uid: invite?.uid, status: "CANCELLED" });
      await waitFor(() => eventsTo("owner@example.com", id.slice(0, 8)).some((e) => e.method === "CANCEL"), 15_000, "owner's cancel email");
      expect(mailTo("grace@example.com", "cancel.ics")).toMatch(/Content-Type: text\/calendar;[^\r\n]*method=CANCEL/i);
      // The freed time is offered again; the reminders of the cancelled call are gone.
      expect((await listSlots(ctx.db, intro)).slots.map((s) => s.start)).toContain(second.start);
      const reminders = await ctx.db
        .select({ key: mailOutbox.dedupeKey, state: mailOutbox.state })
        .from(mailOutbox)
        .where(sql`${mailOutbox.dedupeKey} like ${`booking-reminder:${id}:%`} and ${mailOutbox.state} = 'pending'`);
      expect(reminders).toEqual([]);
    });

    it("refuses forged and expired links and a second cancel", async () => {
      const slots = (await listSlots(ctx.db, intro)).slots;
      const { id, token } = await createBooking(ctx.db, await request("intro", slots[90]?.start ?? 0), nextIp());
      expect((await refusal(cancelBookingByVisitor(ctx.db, id, `${token.slice(0, -2)}xx`))).status).toBe(403);
      const other = await bookingToken(ctx.db, crypto.randomUUID());
      expect((await refusal(cancelBookingByVisitor(ctx.db, id, other))).status).toBe(403);
      // At the call's start the link has expired.
      const [row] = await ctx.db.select({ startsAt: bookings.startsAt }).from(bookings).where(eq(bookings.id, id));
      expect((await refusal(cancelBookingByVisitor(ctx.db, id, token, (row?.startsAt.getTime() ?? 0) + 1))).message).toBe(
        BOOKING_TEXT.expiredLink,
      );
      await cancelBookingByOwner(ctx.db, { id: "admin", role: "admin" }, id, "Sorry, I am ill.");
      expect((await refusal(cancelBookingByVisitor(ctx.db, id, token))).status).toBe(409);
      expect((await refusal(cancelBookingByOwner(ctx.db, { id: "moderator", role: "moderator" }, id, ""))).status).toBe(403);
    });
  });
});
