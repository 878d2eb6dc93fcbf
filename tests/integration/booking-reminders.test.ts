import { and, eq, like } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { activeCallType, bookingToken, cancelBookingByVisitor, createBooking, listSlots } from "~/features/booking/booking.server";
import { bookingCallTypes, bookings, bookingWeeklyHours, mailOutbox } from "~/server/db/schema.server";
import { MailOutbox } from "~/server/mail-outbox.server";
import { easyVerificationToken } from "../helpers/contact";
import { bookingSuiteEnv } from "../helpers/booking";
import { describeEachDatabase } from "../helpers/databases";
import { parseInvite } from "../helpers/invite";
import { mailsTo, useSmtpServer } from "../helpers/smtp-suite";

/**
 * Booking reminders reach a real SMTP server: a reminder is an outbox row due 24 h (and 1 h) before
 * the call; once its time has come, the outbox sends it exactly once even when two runners (two
 * instances) and a later round all look for due mail; a cancelled call's reminder is never sent.
 */
bookingSuiteEnv({ AUTH_SECRET: "booking-reminders-secret-0123456789abcdef", CONTACT_TO: "owner@example.com" });

const HOUR = 3_600_000;
const subjectOf = (raw: string) => /^Subject: (.*)$/m.exec(raw)?.[1] ?? "";

describeEachDatabase("booking reminders", (ctx) => {
  const smtp = useSmtpServer();
  // Two instances' outboxes on one database; neither polls by itself: each round below is a run of "the job".
  let first: MailOutbox;
  let second: MailOutbox;
  beforeAll(async () => {
    await ctx.db.insert(bookingCallTypes).values({
      slug: "intro",
      name: "Intro call",
      durationMinutes: 30,
      incrementMinutes: 30,
      minimumNoticeMinutes: 0,
      horizonDays: 10,
    });
    await ctx.db.insert(bookingWeeklyHours).values([1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, startMinute: 0, endMinute: 1440 })));
    first = new MailOutbox({ db: () => ctx.db });
    second = new MailOutbox({ db: () => ctx.db });
  });

  /** A call booked by the visitor `email` about two days ahead; its id. */
  async function book(email: string, index: number): Promise<string> {
    const intro = await activeCallType(ctx.db, "intro");
    const slot = (await listSlots(ctx.db, intro)).slots.find((s) => s.start > Date.now() + 48 * HOUR + index * HOUR);
    if (!slot) throw new Error("no slot two days ahead");
    const body = {
      callType: "intro",
      start: new Date(slot.start).toISOString(),
      name: "Ada Reminded",
      email,
      verificationToken: await easyVerificationToken(ctx.db),
    };
    return (await createBooking(ctx.db, body, `10.9.0.${index}`)).id;
  }

  const startOf = async (id: string) =>
    (await ctx.db.select({ startsAt: bookings.startsAt }).from(bookings).where(eq(bookings.id, id)))[0]?.startsAt.getTime() ?? 0;
  const reminder = async (id: string, which: "24h" | "1h") => {
    const [row] = await ctx.db
      .select({ id: mailOutbox.id, state: mailOutbox.state, attempts: mailOutbox.attempts, nextAttemptAt: mailOutbox.nextAttemptAt })
      .from(mailOutbox)
      .where(like(mailOutbox.dedupeKey, `booking-reminder:${id}:%:${which}`));
    if (!row) throw new Error(`no ${which} reminder for ${id}`);
    return row;
  };
  /** Time passes until the reminder is due (its row's time is now). */
  const comeDue = async (id: string, which: "24h" | "1h") =>
    ctx.db
      .update(mailOutbox)
      .set({ nextAttemptAt: new Date(Date.now() - 1000) })
      .where(and(eq(mailOutbox.id, (await reminder(id, which)).id), eq(mailOutbox.state, "pending")));
  /** Both instances run the job at once, then one runs it again. */
  const runTwice = async () => {
    await Promise.all([first.drain(), second.drain()]);
    await first.drain();
  };
  const remindersTo = (email: string) => mailsTo(smtp, email).filter((m) => /^(Tomorrow|In one hour): /.test(subjectOf(m.raw)));

  it("sends the 24-hour reminder once its time has come, exactly once across two runners and a second run", async () => {
    const email = "ada-reminded@example.com";
    const id = await book(email, 0);
    const due = await reminder(id, "24h");
    expect(due.state).toBe("pending");
    // Due a day before the call.
    expect(Math.abs(due.nextAttemptAt.getTime() + 24 * HOUR - (await startOf(id)))).toBeLessThan(1000);

    // Before the reminder window: the job sends the confirmations, no reminder.
    await runTwice();
    expect(mailsTo(smtp, email).map((m) => subjectOf(m.raw))).toEqual(["Confirmed: Intro call"]);
    expect((await reminder(id, "24h")).state).toBe("pending");

    await comeDue(id, "24h");
    await runTwice();
    const sent = remindersTo(email);
    expect(sent.map((m) => subjectOf(m.raw))).toEqual(["Tomorrow: Intro call"]);
    expect(await reminder(id, "24h")).toMatchObject({ state: "sent", attempts: 1 });
    // The reminder carries the call's invite: the same UID as the confirmation's.
    const invite = (raw: string) => {
      const unfolded = raw.replace(/=\r?\n/g, "");
      const begin = unfolded.indexOf("BEGIN:VCALENDAR");
      return parseInvite(unfolded.slice(begin, unfolded.indexOf("END:VCALENDAR", begin) + 13).replace(/=3D/g, "="));
    };
    const confirmation = mailsTo(smtp, email).find((m) => subjectOf(m.raw) === "Confirmed: Intro call");
    expect(invite(sent[0]?.raw ?? "").uid).toBe(invite(confirmation?.raw ?? "").uid);
    // The hour-before reminder is still waiting for its own time.
    expect((await reminder(id, "1h")).state).toBe("pending");

    // Another round later sends nothing more.
    await runTwice();
    expect(remindersTo(email)).toHaveLength(1);
  });

  it("never sends a reminder for a cancelled call, even one an instance was sending when the visitor cancelled", async () => {
    const email = "grace-cancels@example.com";
    const id = await book(email, 3);
    await comeDue(id, "24h");
    const due = await reminder(id, "24h");
    // Another instance has just claimed the reminder: the cancellation cannot withdraw a row being sent.
    await ctx.db
      .update(mailOutbox)
      .set({ state: "sending", attempts: 1, lockedBy: "another-instance", lockedUntil: new Date(Date.now() + 60_000) })
      .where(eq(mailOutbox.id, due.id));
    await cancelBookingByVisitor(ctx.db, id, await bookingToken(ctx.db, id));
    // That instance stopped before sending; its lease runs out and the runners take the row over.
    await ctx.db
      .update(mailOutbox)
      .set({ lockedUntil: new Date(Date.now() - 1000) })
      .where(eq(mailOutbox.id, due.id));
    await runTwice();
    expect(mailsTo(smtp, email).map((m) => subjectOf(m.raw))).toEqual(["Cancelled: Intro call"]);
    expect(remindersTo(email)).toEqual([]);
    expect(await reminder(id, "24h")).toMatchObject({ state: "skipped" });
    // The hour-before reminder, not yet being sent, was withdrawn with the cancellation.
    await expect(reminder(id, "1h")).rejects.toThrow(/no 1h reminder/);
  });
});
