import { describe, expect, it } from "vitest";
import { longDate, shortDate } from "./dates";

describe("post dates", () => {
  it("read as toLocaleDateString in US English and UTC did, for dates and strings", () => {
    const value = new Date("2024-03-01T23:30:00Z");
    const short = { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" } as const;
    const long = { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" } as const;
    expect(shortDate(value)).toBe(value.toLocaleDateString("en-US", short));
    expect(shortDate(value)).toBe("Mar 1, 2024");
    expect(longDate("2024-03-01T23:30:00Z")).toBe("March 1, 2024");
    expect(longDate(value)).toBe(value.toLocaleDateString("en-US", long));
    expect(shortDate("not a date")).toBe(new Date("not a date").toLocaleDateString("en-US", short));
  });
});
