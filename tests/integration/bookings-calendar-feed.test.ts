import { eq } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { bookingsFeed, FEED_NOT_FOUND } from "~/features/booking/bookings-feed.server";
import { bookings, bookingSettings, rateLimits } from "~/server/db/schema.server";
import { isAppError } from "~/server/errors.server";
import { openCallType, bookingSuiteEnv } from "../helpers/booking";
import { describeEachDatabase } from "../helpers/databases";
import { parseCalendar } from "../helpers/invite";
import { useSignedInServer } from "../helpers/test-server";

/**
 * The owner's private calendar feed of bookings, over real HTTP on the production build: the address
 * is made on the admin's Bookings page and shown once, the feed parses with a real iCalendar parser
 * (ical.js) and lists confirmed calls with the visitor's answers and cancelled ones as CANCELLED, it
 * needs no cookie and sets none, a wrong or reset address is 404, and reading is rate-limited.
 */
bookingSuiteEnv();

const HOUR = 3_600_000;
const ADDRESS = /(https?:\/\/[^"<\s]+\/api\/bookings\/calendar\.ics\?token=[A-Za-z0-9_-]{43})/;

describeEachDatabase("bookings calendar feed", (ctx) => {
  const admin = useSignedInServer(ctx, "admin");
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    const callType = await openCallType(ctx.db);
    const base = Math.ceil(Date.now() / HOUR) * HOUR + 48 * HOUR;
    const row = (start: number, extra: Partial<typeof bookings.$inferInsert>) => ({
      callTypeId: callType.id,
      startsAt: new Date(start),
      endsAt: new Date(start + HOUR / 2),
      blockedFrom: new Date(start),
      blockedUntil: new Date(start + HOUR / 2),
      name: "Ada Visitor",
      email: "ada@example.com",
      ...extra,
    });
    const made = await ctx.db
      .insert(bookings)
      .values([
        row(base, { company: "Analytical Engines", topic: "Pricing", notes: "Bring the numbers", visitorTimeZone: "America/Los_Angeles" }),
        row(base + 2 * HOUR, { name: "Grace", email: "grace@example.com", status: "cancelled-by-visitor", sequence: 1 }),
        row(base + 4 * HOUR, {
          name: "Linus",
          email: "linus@example.com",
          status: "cancelled-by-owner",
          sequence: 2,
          cancelMessage: "Ill",
        }),
        // Over long ago: not in the feed any more.
        row(base - 60 * 24 * HOUR, { name: "Old Caller", email: "old@example.com" }),
      ])
      .returning({ id: bookings.id, name: bookings.name });
    for (const b of made) ids[b.name] = b.id;
  });

  const newAddress = async () => {
    const page = await admin.postForm("/admin/bookings", { intent: "feed-link-reset" });
    expect(page.status).toBe(200);
    const html = await page.text();
    const address = ADDRESS.exec(html)?.[1];
    if (!address) throw new Error("no calendar address on the page");
    return new URL(address);
  };
  const read = (address: URL) => admin.fetch(`${address.pathname}${address.search}`);

  it("makes an address shown once, whose feed lists calls with the visitor's answers and cancellations as CANCELLED", async () => {
    await ctx.db.delete(rateLimits);
    const address = await newAddress();
    // Only the secret's hash is stored, and the page shows the address only in the reply that made it.
    const [stored] = await ctx.db.select({ hash: bookingSettings.feedTokenHash }).from(bookingSettings);
    expect(stored?.hash).toBeTruthy();
    expect(address.searchParams.get("token")).not.toBe(stored?.hash);
    const later = await (await admin.fetch("/admin/bookings", { headers: { cookie: admin.cookie } })).text();
    expect(later).not.toMatch(ADDRESS);
    expect(later).toContain("A calendar address is active since");

    // A calendar app: no cookie at all.
    const response = await read(address);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
    expect(response.headers.get("set-cookie")).toBeNull();
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    const calendar = parseCalendar(await response.text());
    expect(calendar.method).toBe("PUBLISH");
    expect(calendar.name).toMatch(/^Bookings — /);
    const byUid = new Map(calendar.events.map((e) => [e.uid.split("@")[0], e]));
    expect([...byUid.keys()].sort()).toEqual([ids["Ada Visitor"], ids.Grace, ids.Linus].sort());

    const ada = byUid.get(ids["Ada Visitor"]);
    expect(ada).toMatchObject({ status: "CONFIRMED", sequence: 0, attendee: "mailto:ada@example.com" });
    for (const line of [
      "Visitor: Ada Visitor <ada@example.com>",
      "Visitor's time zone: America/Los_Angeles",
      "Topic: Pricing",
      "Company: Analytical Engines",
      "Bring the numbers",
    ]) {
      expect(ada?.description).toContain(line);
    }
    expect(byUid.get(ids.Grace)).toMatchObject({ status: "CANCELLED", sequence: 1 });
    expect(byUid.get(ids.Grace)?.description).toContain("Cancelled by the visitor.");
    expect(byUid.get(ids.Linus)).toMatchObject({ status: "CANCELLED", sequence: 2 });
    expect(byUid.get(ids.Linus)?.description).toContain("Message: Ill");
    // Times are the bookings' own instants.
    const [row] = await ctx.db
      .select({ startsAt: bookings.startsAt })
      .from(bookings)
      .where(eq(bookings.id, ids["Ada Visitor"] ?? ""));
    expect(ada?.start).toBe(row?.startsAt.getTime());
  });

  it("answers 404 to a wrong, missing or reset address, and to any address once turned off", async () => {
    await ctx.db.delete(rateLimits);
    const old = await newAddress();
    expect((await read(old)).status).toBe(200);
    const wrong = new URL(old);
    wrong.searchParams.set("token", "A".repeat(43));
    for (const path of [`${wrong.pathname}${wrong.search}`, old.pathname, `${old.pathname}?token=short`]) {
      const response = await admin.fetch(path);
      expect(response.status, path).toBe(404);
      expect(await response.json()).toEqual({ error: FEED_NOT_FOUND });
    }

    const current = await newAddress();
    expect(current.search).not.toBe(old.search);
    expect((await read(old)).status).toBe(404);
    expect((await read(current)).status).toBe(200);

    const off = await admin.postForm("/admin/bookings", { intent: "feed-link-off" });
    expect(off.status).toBe(302);
    expect((await read(current)).status).toBe(404);
    const [stored] = await ctx.db.select({ hash: bookingSettings.feedTokenHash }).from(bookingSettings);
    expect(stored?.hash).toBeNull();
  });

  it("limits reads per client address, before the secret is even looked at", async () => {
    const ip = "198.51.100.23";
    for (let i = 0; i < 60; i++) await expect(bookingsFeed(ctx.db, "guess", ip)).rejects.toMatchObject({ status: 404 });
    const refused = await bookingsFeed(ctx.db, "guess", ip).catch((error: unknown) => error);
    expect(isAppError(refused) && refused.status).toBe(429);
    // Another address is not affected.
    await expect(bookingsFeed(ctx.db, "guess", "198.51.100.24")).rejects.toMatchObject({ status: 404 });
  });
});
