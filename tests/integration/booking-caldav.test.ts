import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { listSlots } from "~/features/booking/booking.server";
import { addCaldavCalendar, listCalendarFeeds, refreshCalendarFeed } from "~/features/booking/calendar-feeds.server";
import { bookingBusyTimes, bookingCalendarFeeds } from "~/server/db/schema.server";
import { bookingSuiteEnv, expectFixtureBusyTimesAvoided, openCallType } from "../helpers/booking";
import { describeEachDatabase } from "../helpers/databases";
import { startRadicale, type RadicaleServer } from "../helpers/radicale";

// Radicale listens on 127.0.0.1, which the outbound guard refuses unless this is set.
process.env.OUTBOUND_ALLOW_PRIVATE = "true";

/**
 * CalDAV calendars read from a real CalDAV server (Radicale): a recurring event with an EXDATE and a
 * moved occurrence, an all-day event and a free one become busy times exactly as an ICS feed's do;
 * a wrong password and a server that is down are reported by name and booking pauses after three
 * refresh intervals.
 */
bookingSuiteEnv();

const calendar = (...events: string[]) =>
  ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Test//CalDAV//EN", ...events, "END:VCALENDAR", ""].join("\r\n");
const event = (...lines: string[]) => ["BEGIN:VEVENT", "DTSTAMP:20291201T000000Z", ...lines, "END:VEVENT"].join("\r\n");
const BERLIN = [
  "BEGIN:VTIMEZONE",
  "TZID:Europe/Berlin",
  "BEGIN:STANDARD",
  "DTSTART:19701025T030000",
  "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10",
  "TZOFFSETFROM:+0200",
  "TZOFFSETTO:+0100",
  "END:STANDARD",
  "BEGIN:DAYLIGHT",
  "DTSTART:19700329T020000",
  "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3",
  "TZOFFSETFROM:+0100",
  "TZOFFSETTO:+0200",
  "END:DAYLIGHT",
  "END:VTIMEZONE",
].join("\r\n");

/** The calendar's objects: one resource per UID, as CalDAV stores them. */
const OBJECTS: Record<string, string> = {
  // Mondays 10:00 Berlin, four times; the 14th excluded, the 21st moved to 15:00.
  "weekly.ics": calendar(
    BERLIN,
    event(
      "UID:weekly@test",
      "SUMMARY:Weekly client call",
      "DTSTART;TZID=Europe/Berlin:20300107T100000",
      "DTEND;TZID=Europe/Berlin:20300107T110000",
      "RRULE:FREQ=WEEKLY;COUNT=4",
      "EXDATE;TZID=Europe/Berlin:20300114T100000",
    ),
    event(
      "UID:weekly@test",
      "RECURRENCE-ID;TZID=Europe/Berlin:20300121T100000",
      "SUMMARY:Weekly client call (moved)",
      "DTSTART;TZID=Europe/Berlin:20300121T150000",
      "DTEND;TZID=Europe/Berlin:20300121T160000",
    ),
  ),
  "offsite.ics": calendar(event("UID:offsite@test", "SUMMARY:Offsite", "DTSTART;VALUE=DATE:20300110", "DTEND;VALUE=DATE:20300111")),
  "standup.ics": calendar(
    event("UID:standup@test", "SUMMARY:Standup", "DTSTART:20300102T080000Z", "DURATION:PT15M", "RRULE:FREQ=DAILY;COUNT=3"),
  ),
  "free.ics": calendar(
    event("UID:free@test", "SUMMARY:Shown as free", "TRANSP:TRANSPARENT", "DTSTART:20300108T090000Z", "DTEND:20300108T100000Z"),
  ),
  // Outside the window read (a day back to the horizon): the server's time-range filter leaves it out.
  "old.ics": calendar(event("UID:old@test", "SUMMARY:Long ago", "DTSTART:20200106T090000Z", "DTEND:20200106T100000Z")),
};

const EXPECTED_BUSY = [
  "2030-01-02T08:00:00.000Z 2030-01-02T08:15:00.000Z",
  "2030-01-03T08:00:00.000Z 2030-01-03T08:15:00.000Z",
  "2030-01-04T08:00:00.000Z 2030-01-04T08:15:00.000Z",
  "2030-01-07T09:00:00.000Z 2030-01-07T10:00:00.000Z",
  // All-day: the owner's whole day.
  "2030-01-09T23:00:00.000Z 2030-01-10T23:00:00.000Z",
  "2030-01-21T14:00:00.000Z 2030-01-21T15:00:00.000Z",
  "2030-01-28T09:00:00.000Z 2030-01-28T10:00:00.000Z",
];

const admin = { id: "admin", role: "admin" } as const;
const now = Date.parse("2030-01-01T12:00:00Z");

describeEachDatabase("booking: CalDAV calendars", (ctx) => {
  let radicale: RadicaleServer;
  let calendarUrl = "";
  beforeAll(async () => {
    radicale = await startRadicale();
    calendarUrl = `${radicale.base}/${radicale.username}/work/`;
    expect((await radicale.request("MKCALENDAR", `/${radicale.username}/work/`)).status).toBe(201);
    for (const [name, text] of Object.entries(OBJECTS))
      expect((await radicale.request("PUT", `/${radicale.username}/work/${name}`, text)).status).toBe(201);
  }, 30_000);
  afterAll(async () => {
    await radicale.stop();
  });

  const busyOf = async (feedId: string) =>
    (
      await ctx.db
        .select({ startsAt: bookingBusyTimes.startsAt, endsAt: bookingBusyTimes.endsAt })
        .from(bookingBusyTimes)
        .where(eq(bookingBusyTimes.feedId, feedId))
        .orderBy(bookingBusyTimes.startsAt)
    ).map((b) => `${b.startsAt.toISOString()} ${b.endsAt.toISOString()}`);
  const remove = (id: string) => ctx.db.delete(bookingCalendarFeeds).where(eq(bookingCalendarFeeds.id, id));

  it("a wrong password is shown by name, stores no busy time, and booking stays paused", async () => {
    const id = await addCaldavCalendar(
      ctx.db,
      admin,
      { label: "Wrong", url: calendarUrl, username: radicale.username, password: "not the password", refreshMinutes: "10" },
      now,
    );
    const [shown] = await listCalendarFeeds(ctx.db, admin);
    expect(shown?.lastError).toBe("The server refused the user name or password (HTTP 401)");
    expect(shown?.lastSuccessAt).toBeNull();
    expect(await busyOf(id)).toEqual([]);
    expect((await listSlots(ctx.db, await openCallType(ctx.db), now)).paused).toBe(true);
    await remove(id);
  });

  it("reads the calendar's busy times with the ICS rules; the password is sealed and never shown back", async () => {
    const intro = await openCallType(ctx.db);
    const monday = Date.parse("2030-01-07T09:00:00Z");
    expect((await listSlots(ctx.db, intro, now)).slots.map((s) => s.start)).toContain(monday);

    const id = await addCaldavCalendar(
      ctx.db,
      admin,
      { label: "Work", url: calendarUrl, username: radicale.username, password: radicale.password, refreshMinutes: "10" },
      now,
    );
    const [shown] = await listCalendarFeeds(ctx.db, admin);
    expect(shown).toMatchObject({ kind: "caldav", username: radicale.username, address: `${radicale.base}/…`, lastError: null });
    expect(JSON.stringify(shown)).not.toContain(radicale.password);
    const [stored] = await ctx.db
      .select({ passwordSealed: bookingCalendarFeeds.passwordSealed })
      .from(bookingCalendarFeeds)
      .where(eq(bookingCalendarFeeds.id, id));
    expect(stored?.passwordSealed).toMatch(/^v1\./);
    expect(stored?.passwordSealed).not.toContain(radicale.password);

    expect(await busyOf(id)).toEqual(EXPECTED_BUSY);
    const offered = (await listSlots(ctx.db, intro, now)).slots.map((s) => s.start);
    expectFixtureBusyTimesAvoided(offered);
    // The transparent event blocks nothing.
    expect(offered).toContain(Date.parse("2030-01-08T09:00:00Z"));

    // A new event shows up at the next refresh.
    const added = calendar(event("UID:new@test", "SUMMARY:New", "DTSTART:20300115T130000Z", "DTEND:20300115T140000Z"));
    expect((await radicale.request("PUT", `/${radicale.username}/work/new.ics`, added)).status).toBe(201);
    await refreshCalendarFeed(ctx.db, id, now + 11 * 60_000, "Europe/Berlin");
    expect(await busyOf(id)).toContain("2030-01-15T13:00:00.000Z 2030-01-15T14:00:00.000Z");

    // The server goes down: the last good busy times stay, the admin sees why, and after three
    // refresh intervals without a good read booking pauses.
    await radicale.stop();
    await refreshCalendarFeed(ctx.db, id, now + 22 * 60_000, "Europe/Berlin");
    const [afterFailure] = await listCalendarFeeds(ctx.db, admin);
    expect(afterFailure?.lastError).toMatch(/^not reachable: .*ECONNREFUSED/);
    expect(afterFailure?.busyCount).toBe(EXPECTED_BUSY.length + 1);
    expect((await listSlots(ctx.db, intro, now + 22 * 60_000)).paused).toBe(false);
    expect((await listSlots(ctx.db, intro, now + 42 * 60_000)).paused).toBe(true);
  });

  it("refuses a plain http:// address on the internet and a missing password, with a message", async () => {
    await expect(
      addCaldavCalendar(ctx.db, admin, { label: "X", url: "http://calendar.example.com/dav/", username: "a", password: "b" }, now),
    ).rejects.toMatchObject({ status: 400, message: expect.stringContaining("https://") as string });
    await expect(
      addCaldavCalendar(ctx.db, admin, { label: "X", url: "https://calendar.example.com/dav/", username: "a", password: "" }, now),
    ).rejects.toMatchObject({ status: 400, message: "Enter the password" });
  });
});
