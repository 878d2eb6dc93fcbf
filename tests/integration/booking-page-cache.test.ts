import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, expect, it, vi } from "vitest";
import { BOOKING_TEXT } from "~/features/booking/booking-schema";
import { listSlots, type CallType } from "~/features/booking/booking.server";
import { addCalendarFeed, refreshCalendarFeed, removeCalendarFeed } from "~/features/booking/calendar-feeds.server";
import { blockedInterval } from "~/features/booking/slots";
import { refreshContentVersion } from "~/server/content-version.server";
import { bookingCalendarFeeds, bookings } from "~/server/db/schema.server";
import { GUARDED_CACHE_CONTROL } from "~/server/page-cache.server";
import { bookingSuiteEnv, openCallType } from "../helpers/booking";
import { describeEachDatabase } from "../helpers/databases";
import { useCachingTestServer } from "../helpers/test-server";

/**
 * The slot page in the page cache (docs/decisions/0083-slot-page-cache.md), through the production
 * server with the clock set by the test: a stored /book answers only requests that read the same
 * slot stamp and pause from the database, and only until its first slot leaves the minimum notice,
 * to the millisecond; the home page's "Reach Me" shows a feed's pause, addition and removal at once.
 */
bookingSuiteEnv({ OUTBOUND_ALLOW_PRIVATE: "true" });

const MINUTE = 60_000;
const NOTICE_MINUTES = 60;
const start = Date.parse("2030-03-04T08:07:13.250Z");
const admin = { id: "admin", role: "admin" } as const;

// An empty calendar served on 127.0.0.1, or a failure while `failing`.
let calendar: Server;
let calendarUrl = "";
let failing = true;
beforeAll(async () => {
  calendar = createServer((_req, res) => {
    if (failing) res.writeHead(503).end("no");
    else
      res
        .writeHead(200, { "content-type": "text/calendar" })
        .end("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nEND:VCALENDAR\r\n");
  });
  await new Promise<void>((resolve) => calendar.listen(0, "127.0.0.1", resolve));
  calendarUrl = `http://127.0.0.1:${(calendar.address() as AddressInfo).port}/private/empty.ics`;
});
afterAll(async () => {
  await new Promise((resolve) => calendar.close(resolve));
});

describeEachDatabase("slot page cache", (ctx) => {
  const server = useCachingTestServer();
  let callType: CallType;
  beforeAll(async () => {
    callType = await openCallType(ctx.db, "paged", { name: "Paged call", minimumNoticeMinutes: NOTICE_MINUTES, horizonDays: 5 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Sets the clock every part of the server reads (slots, the pause, the page cache). */
  const clockAt = (at: number) => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(at);
  };
  const page = async (path: string) => {
    const response = await server.fetch(path);
    return { status: response.status, cache: response.headers.get("x-cache"), headers: response.headers, html: await response.text() };
  };
  const shows = (html: string, at: number) => html.includes(`dateTime="${new Date(at).toISOString()}"`);
  const firstSlot = async (at: number) => (await listSlots(ctx.db, callType, at)).slots[0]?.start ?? 0;

  it("serves /book from memory until its first slot leaves the minimum notice, to the millisecond, with no cookie and its own nonce", async () => {
    clockAt(start);
    const first = await firstSlot(start);
    // Offered while now + notice <= its start: the last such millisecond, and the next.
    const edge = first - NOTICE_MINUTES * MINUTE;
    clockAt(edge - 5_000);
    const miss = await page("/book");
    expect(miss.cache).toBe("MISS");
    expect(shows(miss.html, first)).toBe(true);
    const hit = await page("/book");
    expect(hit.cache).toBe("HIT");
    expect(hit.headers.get("set-cookie")).toBeNull();
    expect(hit.headers.get("cache-control")).toBe(GUARDED_CACHE_CONTROL);
    const nonce = /'nonce-([^']+)'/.exec(hit.headers.get("content-security-policy") ?? "")?.[1];
    expect(nonce).toBeTruthy();
    expect(hit.html).toContain(`nonce="${nonce}"`);
    expect(nonce).not.toBe(/'nonce-([^']+)'/.exec(miss.headers.get("content-security-policy") ?? "")?.[1]);

    clockAt(edge);
    const last = await page("/book");
    expect([last.cache, shows(last.html, first)]).toEqual(["HIT", true]);
    clockAt(edge + 1);
    const after = await page("/book");
    expect([after.cache, shows(after.html, first)]).toEqual(["MISS", false]);
    // A minute on, the boundary has moved on by the slot after it (every 30 minutes here).
    clockAt(edge + MINUTE);
    expect(shows((await page("/book")).html, first + 30 * MINUTE)).toBe(true);
  });

  it("shows a booking written straight into the table (no content version bump) on the very next request, with type and day", async () => {
    clockAt(start);
    const { slots } = await listSlots(ctx.db, callType, start);
    const target = slots[12];
    if (!target) throw new Error("no slot");
    const path = `/book?type=paged&day=${target.day}`;
    await page(path);
    const before = await page(path);
    expect([before.cache, shows(before.html, target.start)]).toEqual(["HIT", true]);

    const blocked = blockedInterval(target.start, callType);
    await ctx.db.insert(bookings).values({
      callTypeId: callType.id,
      startsAt: new Date(target.start),
      endsAt: new Date(target.start + 30 * MINUTE),
      blockedFrom: new Date(blocked.start),
      blockedUntil: new Date(blocked.end),
      name: "Direct Visitor",
      email: "direct@example.com",
    });
    const after = await page(path);
    expect([after.cache, shows(after.html, target.start)]).toEqual(["MISS", false]);
    expect((await page(path)).cache).toBe("HIT");
    // A chosen slot (the form's step) is rendered for its request, never stored.
    const chosen = `${path}&slot=${encodeURIComponent(new Date(slots[13]?.start ?? 0).toISOString())}`;
    for (let i = 0; i < 2; i++) {
      const form = await page(chosen);
      expect([form.status, form.cache, form.html.includes("Your details")]).toEqual([200, null, true]);
    }
  });

  it("pauses /book and the home page's Reach Me the moment a feed has gone unread for three intervals", async () => {
    clockAt(start);
    const first = await firstSlot(start);
    // Read 29 minutes ago, every 10 minutes: booking pauses a minute from now (a row written straight, no bump).
    const [feed] = await ctx.db
      .insert(bookingCalendarFeeds)
      .values({
        label: "Work",
        url: calendarUrl,
        refreshMinutes: 10,
        lastAttemptAt: new Date(start),
        lastSuccessAt: new Date(start - 29 * MINUTE),
      })
      .returning({ id: bookingCalendarFeeds.id });
    const pausesAfter = start + MINUTE;
    for (const path of ["/book", "/"]) {
      const open = await page(path);
      expect(open.html).not.toContain(BOOKING_TEXT.paused.replace(/contact form\.$/, ""));
      expect(shows(open.html, first)).toBe(true);
    }
    clockAt(pausesAfter);
    expect((await page("/book")).cache).toBe("HIT");
    expect((await page("/")).cache).toBe("HIT");
    clockAt(pausesAfter + 1);
    for (const path of ["/book", "/"]) {
      const paused = await page(path);
      expect(paused.cache, path).toBe("MISS");
      expect(paused.html).toContain(BOOKING_TEXT.paused.replace(/contact form\.$/, ""));
      expect(paused.html).toMatch(/<a[^>]*href="\/contact"[^>]*>contact form<\/a>/);
      expect(shows(paused.html, first)).toBe(false);
    }
    await removeCalendarFeed(ctx.db, admin, feed?.id);
    await refreshContentVersion();
  });

  it("shows a calendar feed's addition, first good read and removal on the home page at once", async () => {
    clockAt(start);
    const first = await firstSlot(start);
    const pausedText = BOOKING_TEXT.paused.replace(/contact form\.$/, "");
    await page("/");
    expect(shows((await page("/")).html, first)).toBe(true);

    // Added, and unreadable: booking is paused until it is read.
    failing = true;
    const id = await addCalendarFeed(ctx.db, admin, { label: "Work", url: calendarUrl, refreshMinutes: 10 }, start);
    await refreshContentVersion();
    const added = await page("/");
    expect(added.html).toContain(pausedText);
    expect((await page("/book")).html).toContain(pausedText);

    // Read at last (no busy times: nothing else changed), the pause ends at once.
    failing = false;
    await refreshCalendarFeed(ctx.db, id, start, "Europe/Berlin");
    await refreshContentVersion();
    const read = await page("/");
    expect([read.html.includes(pausedText), shows(read.html, first)]).toEqual([false, true]);

    // Failing again and removed while paused: the slots come back at once.
    failing = true;
    clockAt(start + 31 * MINUTE);
    expect((await page("/")).html).toContain(pausedText);
    await removeCalendarFeed(ctx.db, admin, id);
    await refreshContentVersion();
    expect((await page("/")).html).not.toContain(pausedText);
  });

  it("lists the common zones with the shown one, and every zone on the page behind 'All time zones'", async () => {
    clockAt(start);
    const short = await page("/book?tz=Pacific/Chatham");
    const options = (html: string) => [...html.matchAll(/<option value="([^"]+)"/g)].map((m) => m[1]);
    const few = options(short.html);
    expect(few).toEqual(expect.arrayContaining(["Pacific/Chatham", "Europe/Berlin", "America/New_York", "Asia/Tokyo", "UTC"]));
    expect(few.length).toBeLessThan(60);
    const link = /<a href="([^"]+)"[^>]*>All time zones<\/a>/.exec(short.html)?.[1]?.replace(/&amp;/g, "&");
    expect(link).toContain("zones=all");
    const all = await page(link ?? "");
    expect(options(all.html).length).toBeGreaterThan(300);
    expect(all.html).toContain('data-time-zone="Pacific/Chatham"');
    expect(all.html).not.toContain("All time zones");
  });
});
