import { describe, expect, it } from "vitest";
import { formatInZone, isValidTimeZone, utcToZonedLocal, zonedLocalToUtc } from "./time-zone";

describe("site time zone", () => {
  it("reads a datetime-local value in the zone, across DST", () => {
    expect(zonedLocalToUtc("2026-07-01T08:00", "UTC")?.toISOString()).toBe("2026-07-01T08:00:00.000Z");
    expect(zonedLocalToUtc("2026-07-01T08:00", "Europe/Berlin")?.toISOString()).toBe("2026-07-01T06:00:00.000Z");
    expect(zonedLocalToUtc("2026-01-15T08:00", "Europe/Berlin")?.toISOString()).toBe("2026-01-15T07:00:00.000Z");
    expect(zonedLocalToUtc("2026-11-24T20:30", "America/New_York")?.toISOString()).toBe("2026-11-25T01:30:00.000Z");
    expect(zonedLocalToUtc("2026-06-10T05:45", "Asia/Kathmandu")?.toISOString()).toBe("2026-06-10T00:00:00.000Z");
  });

  it("round-trips with utcToZonedLocal", () => {
    for (const zone of ["UTC", "Europe/Berlin", "America/Los_Angeles", "Australia/Lord_Howe"]) {
      const at = zonedLocalToUtc("2026-03-29T12:15", zone);
      expect(at && utcToZonedLocal(at, zone)).toBe("2026-03-29T12:15");
    }
  });

  it("refuses text that is not a date-time", () => {
    expect(zonedLocalToUtc("tomorrow", "UTC")).toBeNull();
    expect(zonedLocalToUtc("2026-02-30T08:00", "UTC")).toBeNull();
    expect(zonedLocalToUtc("2026-01-01T25:00", "UTC")).toBeNull();
    expect(isValidTimeZone("Mars/Olympus")).toBe(false);
    expect(isValidTimeZone("Europe/Berlin")).toBe(true);
  });

  it("formats with the zone named", () => {
    expect(formatInZone(new Date("2026-11-24T07:00:00Z"), "Europe/Berlin")).toBe("Nov 24, 2026, 8:00 AM (Europe/Berlin)");
  });
});
