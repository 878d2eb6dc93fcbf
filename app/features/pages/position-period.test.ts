import { describe, expect, it } from "vitest";
import { periodKey, sortByPeriod } from "./position-period";

describe("periodKey", () => {
  it("reads months and years in the usual shapes", () => {
    expect(periodKey("02/2022 – 07/2025")).toEqual({ start: 2022 * 12 + 1, end: 2025 * 12 + 6 });
    expect(periodKey("2019-06 - 2022-01")).toEqual({ start: 2019 * 12 + 5, end: 2022 * 12 });
    expect(periodKey("Mar 2020 to June 2021")).toEqual({ start: 2020 * 12 + 2, end: 2021 * 12 + 5 });
    expect(periodKey("2018 – 2019")).toEqual({ start: 2018 * 12, end: 2019 * 12 + 11 });
    expect(periodKey("2024")).toEqual({ start: 2024 * 12, end: 2024 * 12 });
  });

  it("takes Present (and its synonyms) as the latest end", () => {
    expect(periodKey("08/2025 – Present")?.end).toBe(Number.POSITIVE_INFINITY);
    expect(periodKey("2023 - now")?.end).toBe(Number.POSITIVE_INFINITY);
  });

  it("refuses what it cannot read", () => {
    expect(periodKey("")).toBeNull();
    expect(periodKey("a while ago")).toBeNull();
    expect(periodKey("13/2020 – 01/2021")).toBeNull();
    expect(periodKey("Foo 2020")).toBeNull();
  });
});

describe("sortByPeriod", () => {
  it("puts the latest end first, then the latest start; unreadable periods last in their order", () => {
    const rows = [
      { id: "old", period: "06/2019 – 01/2022" },
      { id: "unknown-1", period: "" },
      { id: "current", period: "08/2025 – Present" },
      { id: "unknown-2", period: "some time" },
      { id: "recent", period: "02/2022 – 07/2025" },
      { id: "overlap", period: "01/2025 – 07/2025" },
    ];
    expect(sortByPeriod(rows).map((row) => row.id)).toEqual(["current", "overlap", "recent", "old", "unknown-1", "unknown-2"]);
  });

  it("keeps the owner's order between equal periods", () => {
    const rows = [
      { id: "a", period: "2020 – 2021" },
      { id: "b", period: "2020 – 2021" },
    ];
    expect(sortByPeriod(rows).map((row) => row.id)).toEqual(["a", "b"]);
  });
});
