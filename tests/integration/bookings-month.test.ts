import { JSDOM } from "jsdom";
import { beforeAll, expect, it } from "vitest";
import { bookings } from "~/server/db/schema.server";
import { openCallType, bookingSuiteEnv } from "../helpers/booking";
import { describeEachDatabase } from "../helpers/databases";
import { useSignedInServer } from "../helpers/test-server";

/**
 * The month calendar on Admin → Bookings, rendered by the production build: a table with a column a
 * weekday, each call on its day and at its time in the site's zone (Europe/Berlin here, across the
 * spring-forward night), months as plain links, and a malformed month answered with a 400 that says how.
 */
bookingSuiteEnv();

describeEachDatabase("bookings month calendar", (ctx) => {
  const admin = useSignedInServer(ctx, "admin");

  beforeAll(async () => {
    const callType = await openCallType(ctx.db);
    const row = (iso: string, name: string, status: "confirmed" | "cancelled-by-visitor" = "confirmed") => {
      const start = Date.parse(iso);
      return {
        callTypeId: callType.id,
        startsAt: new Date(start),
        endsAt: new Date(start + 1_800_000),
        blockedFrom: new Date(start),
        blockedUntil: new Date(start + 1_800_000),
        name,
        email: `${name.toLowerCase()}@example.com`,
        status,
      };
    };
    await ctx.db.insert(bookings).values([
      // 00:30 on Sunday 31 March in Berlin (winter time), still the 30th in UTC.
      row("2030-03-30T23:30:00Z", "Midnight"),
      // 10:00 the same Sunday, after the clocks went forward.
      row("2030-03-31T08:00:00Z", "Summer"),
      row("2030-03-04T09:00:00Z", "Cancelled", "cancelled-by-visitor"),
      row("2030-04-15T12:00:00Z", "April"),
    ]);
  });

  const page = async (query: string) => {
    const response = await admin.fetch(`/admin/bookings${query}`, { headers: { cookie: admin.cookie } });
    return { status: response.status, document: new JSDOM(await response.text()).window.document };
  };
  /** What each day's cell of the table lists, by its label ("Sunday, March 31"). */
  const cells = (document: Document) =>
    new Map(
      [...document.querySelectorAll('[data-testid="bookings-month"] td')].map((td) => [
        td.querySelector(".sr-only")?.textContent ?? "",
        [...td.querySelectorAll("li")].map((li) => li.textContent),
      ]),
    );

  it("lays the month out as weeks of weekday columns with each call on its day and time in the site's zone", async () => {
    const { status, document } = await page("?month=2030-03");
    expect(status).toBe(200);
    expect(document.querySelector("#calendar-heading")?.textContent).toBe("Calendar: March 2030");
    const table = document.querySelector('[data-testid="bookings-month"]');
    expect(table?.querySelector("caption")?.textContent).toBe("Bookings in March 2030, times in Europe/Berlin");
    expect([...(table?.querySelectorAll("thead th[scope=col]") ?? [])].map((th) => th.textContent)).toEqual([
      "Mon",
      "Tue",
      "Wed",
      "Thu",
      "Fri",
      "Sat",
      "Sun",
    ]);
    // March 2030 runs Friday 1st to Sunday 31st: five weeks from Monday 25 February.
    const rows = [...(table?.querySelectorAll("tbody tr") ?? [])];
    expect(rows).toHaveLength(5);
    for (const row of rows) expect(row.querySelectorAll("td")).toHaveLength(7);

    const byDay = cells(document);
    expect(byDay.get("Sunday, March 31")).toEqual(["12:30 AM Midnight · Open call", "10:00 AM Summer · Open call"]);
    expect(byDay.get("Saturday, March 30")).toEqual([]);
    expect(byDay.get("Monday, March 4")).toEqual(["10:00 AM Cancelled · Open call (cancelled)"]);
    expect([...byDay.values()].flat().join(" ")).not.toContain("April");
    const midnight = [...document.querySelectorAll("td li time")].find((t) => t.textContent === "12:30 AM");
    expect(midnight?.getAttribute("datetime")).toBe("2030-03-30T23:30:00.000Z");

    const months = document.querySelector('nav[aria-label="Months"]');
    const links = [...(months?.querySelectorAll("a") ?? [])].map((a) => [a.textContent, a.getAttribute("href")]);
    expect(links).toContainEqual(["← February 2030", "/admin/bookings?month=2030-02#calendar"]);
    expect(links).toContainEqual(["April 2030 →", "/admin/bookings?month=2030-04#calendar"]);
    expect(links.map(([text]) => text)).toContain("This month");
  });

  it("shows the next month from its link, and today's month without one", async () => {
    const april = cells((await page("?month=2030-04")).document);
    expect(april.get("Monday, April 15")).toEqual(["2:00 PM April · Open call"]);
    const { document } = await page("");
    const now = new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric", timeZone: "Europe/Berlin" }).format(new Date());
    expect(document.querySelector("#calendar-heading")?.textContent).toBe(`Calendar: ${now}`);
    expect(document.querySelectorAll('td[aria-current="date"]')).toHaveLength(1);
  });

  it("answers a malformed month with a 400 that says what a month looks like", async () => {
    for (const query of ["?month=2030-13", "?month=march", "?month=0099-01"]) {
      const { status, document } = await page(query);
      expect(status, query).toBe(400);
      expect(document.body.textContent).toContain("The month must look like 2026-11");
    }
  });
});
