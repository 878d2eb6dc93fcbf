import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { feedFetchUrl, parseBusyTimes } from "./calendar-feeds.server";

const fixture = readFileSync(new URL("../../../tests/fixtures/booking/busy.ics", import.meta.url), "utf8");
const at = (iso: string) => Date.parse(iso);
const window = { start: at("2030-01-01T00:00:00Z"), end: at("2031-01-01T00:00:00Z") };
const iso = (busy: { start: number; end: number }[]) =>
  busy.map((b) => `${new Date(b.start).toISOString()} ${new Date(b.end).toISOString()}`);

describe("parseBusyTimes", () => {
  it("expands recurrences with EXDATE and a moved occurrence, all-day and zoned events, and skips free time", () => {
    expect(iso(parseBusyTimes(fixture, window, "Europe/Berlin"))).toEqual([
      // Daily 15-minute standup in UTC, DURATION instead of DTEND, three days.
      "2030-01-02T08:00:00.000Z 2030-01-02T08:15:00.000Z",
      "2030-01-03T08:00:00.000Z 2030-01-03T08:15:00.000Z",
      "2030-01-04T08:00:00.000Z 2030-01-04T08:15:00.000Z",
      // Weekly 10:00 in the feed's own VTIMEZONE (UTC+1 in winter); the 14th is excluded.
      "2030-01-07T09:00:00.000Z 2030-01-07T10:00:00.000Z",
      // All-day: the whole day in the owner's zone.
      "2030-01-09T23:00:00.000Z 2030-01-10T23:00:00.000Z",
      // The 21st's occurrence moved to 15:00.
      "2030-01-21T14:00:00.000Z 2030-01-21T15:00:00.000Z",
      "2030-01-28T09:00:00.000Z 2030-01-28T10:00:00.000Z",
      // Summer time: UTC+2.
      "2030-07-01T08:00:00.000Z 2030-07-01T10:00:00.000Z",
    ]);
  });

  it("keeps to the window", () => {
    const busy = parseBusyTimes(fixture, { start: at("2030-01-20T00:00:00Z"), end: at("2030-01-25T00:00:00Z") }, "Europe/Berlin");
    expect(iso(busy)).toEqual(["2030-01-21T14:00:00.000Z 2030-01-21T15:00:00.000Z"]);
  });

  it("refuses text that is not iCalendar", () => {
    expect(() => parseBusyTimes("<html>Sign in</html>", window, "Europe/Berlin")).toThrow();
  });

  it("reads webcal:// addresses over https", () => {
    expect(feedFetchUrl("webcal://calendar.example/private/abc.ics")).toBe("https://calendar.example/private/abc.ics");
    expect(feedFetchUrl("https://calendar.example/a.ics")).toBe("https://calendar.example/a.ics");
  });
});
