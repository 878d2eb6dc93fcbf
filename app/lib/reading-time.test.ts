import { describe, expect, it } from "vitest";
import { readingTimeLabel, readingTimeMinutes } from "./reading-time";

describe("reading time", () => {
  it("is words / 200 rounded up", () => {
    expect(readingTimeMinutes("")).toBe(0);
    expect(readingTimeMinutes("one")).toBe(1);
    expect(readingTimeMinutes(Array(200).fill("w").join(" "))).toBe(1);
    expect(readingTimeMinutes(Array(201).fill("w").join("\n\t "))).toBe(2);
    expect(readingTimeLabel(Array(450).fill("w").join(" "))).toBe("3 min read");
  });
});
