import { describe, expect, it } from "vitest";
import { addMonths, monthGrid } from "./month-grid";

describe("monthGrid", () => {
  it("shows whole weeks from Monday to Sunday around the month", () => {
    // November 2026 starts on a Sunday and ends on a Monday.
    const grid = monthGrid("2026-11");
    expect(grid.label).toBe("November 2026");
    expect(grid.from).toBe("2026-10-26");
    expect(grid.until).toBe("2026-12-07");
    expect(grid.weeks).toHaveLength(6);
    for (const week of grid.weeks) expect(week).toHaveLength(7);
    expect(grid.weeks[0]?.[6]).toEqual({ day: "2026-11-01", date: 1, inMonth: true });
    expect(grid.weeks[0]?.[0]).toEqual({ day: "2026-10-26", date: 26, inMonth: false });
    expect(grid.weeks[5]?.[0]).toEqual({ day: "2026-11-30", date: 30, inMonth: true });
    expect(grid.weeks.flat().filter((d) => d.inMonth)).toHaveLength(30);
  });

  it("needs no filler for a month that starts on Monday and ends on Sunday", () => {
    // February 2027: Monday 1st to Sunday 28th.
    const grid = monthGrid("2027-02");
    expect(grid.weeks).toHaveLength(4);
    expect(grid.weeks.flat().every((d) => d.inMonth)).toBe(true);
    expect([grid.from, grid.until]).toEqual(["2027-02-01", "2027-03-01"]);
  });

  it("counts leap days and steps across years", () => {
    expect(
      monthGrid("2028-02")
        .weeks.flat()
        .filter((d) => d.inMonth),
    ).toHaveLength(29);
    expect(monthGrid("2026-12")).toMatchObject({ previous: "2026-11", next: "2027-01" });
    expect(monthGrid("2027-01")).toMatchObject({ previous: "2026-12", next: "2027-02" });
    expect(addMonths("2026-03", -15)).toBe("2024-12");
  });
});
