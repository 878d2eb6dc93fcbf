import { describe, expect, it } from "vitest";
import { availabilityText, parseAvailability } from "./availability-text";

describe("availability text", () => {
  it("reads weekly hours, days off, holidays and replacement hours, and writes them back", () => {
    const text = ["Mon 09:00-12:00, 14:00-17:00", "Fri 10:00-24:00", "2026-12-24..2027-01-02 off", "2026-12-28 10:00-12:00"].join("\n");
    const parsed = parseAvailability(text);
    expect(parsed.weekly).toEqual([
      { weekday: 1, startMinute: 540, endMinute: 720 },
      { weekday: 1, startMinute: 840, endMinute: 1020 },
      { weekday: 5, startMinute: 600, endMinute: 1440 },
    ]);
    expect(parsed.overrides).toEqual([
      { firstDay: "2026-12-24", lastDay: "2027-01-02", startMinute: null, endMinute: null },
      { firstDay: "2026-12-28", lastDay: "2026-12-28", startMinute: 600, endMinute: 720 },
    ]);
    expect(parseAvailability(availabilityText(parsed))).toEqual(parsed);
  });

  it("names the line to fix", () => {
    expect(() => parseAvailability("Mon 09:00-12:00\nTue 12:00-09:00")).toThrow(/Line 2/);
    expect(() => parseAvailability("Someday 09:00-10:00")).toThrow(/Line 1/);
    expect(() => parseAvailability("2026-02-30 off")).toThrow(/Line 1: not a valid date/);
    expect(() => parseAvailability("2026-03-02..2026-03-01 off")).toThrow(/Line 1/);
  });
});
