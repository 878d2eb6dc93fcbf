import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { activeCallType, listSlots } from "~/features/booking/booking.server";
import { addCalendarFeed, listCalendarFeeds, refreshCalendarFeed } from "~/features/booking/calendar-feeds.server";
import { readContentVersion } from "~/server/content-version.server";
import { bookingBusyTimes, bookingCallTypes, bookingSlotStamp, bookingWeeklyHours } from "~/server/db/schema.server";
import { resetEnvForTests } from "~/server/env.server";
import { expectFixtureBusyTimesAvoided } from "../helpers/booking";
import { describeEachDatabase } from "../helpers/databases";

// The fixture servers listen on 127.0.0.1, which the outbound guard refuses unless this is set.
process.env.OUTBOUND_ALLOW_PRIVATE = "true";

/**
 * Calendar feeds read from a real local HTTP server: busy times land in the database, slots that
 * overlap them are not offered, and a feed that fails keeps its last good busy times and shows its error.
 */
const fixture = readFileSync(new URL("../fixtures/booking/busy.ics", import.meta.url), "utf8");
const saved = { ...process.env };
let server: Server;
let base = "";
let failing = false;
beforeAll(async () => {
  process.env.SITE_TIME_ZONE = "Europe/Berlin";
  process.env.LOG_LEVEL = "silent";
  resetEnvForTests();
  server = createServer((req, res) => {
    if (failing || req.url !== "/private/secret-token/basic.ics") {
      res.writeHead(failing ? 503 : 404).end("no");
      return;
    }
    res.writeHead(200, { "content-type": "text/calendar" }).end(fixture);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  process.env = saved;
  resetEnvForTests();
  await new Promise((resolve) => server.close(resolve));
});

const admin = { id: "admin", role: "admin" } as const;
const now = Date.parse("2030-01-01T12:00:00Z");

describeEachDatabase("booking calendar feeds", (ctx) => {
  beforeAll(async () => {
    await ctx.db.insert(bookingCallTypes).values({
      slug: "intro",
      name: "Intro call",
      durationMinutes: 60,
      incrementMinutes: 60,
      minimumNoticeMinutes: 0,
      horizonDays: 30,
      displayOrder: 0,
    });
    await ctx.db.insert(bookingWeeklyHours).values([1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, startMinute: 0, endMinute: 1440 })));
  });

  it("stores the feed's busy times and offers no slot that overlaps them; a failure keeps them and shows why", async () => {
    const intro = await activeCallType(ctx.db);
    const monday = Date.parse("2030-01-07T09:00:00Z");
    expect((await listSlots(ctx.db, intro, now)).slots.map((s) => s.start)).toContain(monday);

    const id = await addCalendarFeed(
      ctx.db,
      admin,
      { label: "Work", url: `${base}/private/secret-token/basic.ics`, refreshMinutes: "10" },
      now,
    );
    const busy = await ctx.db.select({ startsAt: bookingBusyTimes.startsAt }).from(bookingBusyTimes);
    expect(busy).toHaveLength(8);
    expectFixtureBusyTimesAvoided((await listSlots(ctx.db, intro, now)).slots.map((s) => s.start));

    const [shown] = await listCalendarFeeds(ctx.db, admin);
    expect(shown?.address).toBe(`${base}/…`);
    expect(JSON.stringify(shown)).not.toContain("secret-token");

    // Read again, the same busy times: nothing rewritten, so neither the slot stamp nor the content version moves.
    const unchanged = async () => ({
      stamp: (await ctx.db.select().from(bookingSlotStamp))[0]?.stamp,
      version: await readContentVersion(ctx.db),
    });
    const before = await unchanged();
    await refreshCalendarFeed(ctx.db, id, now - 60_000, "Europe/Berlin");
    expect(await unchanged()).toEqual(before);
    expect((await listCalendarFeeds(ctx.db, admin))[0]?.lastSuccessAt).toBe(new Date(now - 60_000).toISOString());

    failing = true;
    try {
      await refreshCalendarFeed(ctx.db, id, now + 11 * 60_000, "Europe/Berlin");
    } finally {
      failing = false;
    }
    const [afterFailure] = await listCalendarFeeds(ctx.db, admin);
    expect(afterFailure?.lastError).toBe("HTTP 503");
    expect(afterFailure?.busyCount).toBe(8);
    expect((await listSlots(ctx.db, intro, now + 11 * 60_000)).slots.map((s) => s.start)).not.toContain(monday);
    // Unread for longer than three intervals: booking pauses rather than offer a time that may clash.
    expect((await listSlots(ctx.db, intro, now + 31 * 60_000)).paused).toBe(true);
  });

  it("refuses an address that is not http(s) or webcal with a message", async () => {
    await expect(addCalendarFeed(ctx.db, admin, { label: "X", url: "file:///etc/passwd" }, now)).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining("https://") as string,
    });
  });
});
