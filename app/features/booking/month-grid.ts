import { addDays, weekdayOf } from "~/lib/time-zone";

/**
 * A month as the weeks that show it, Monday first (the weekday numbering of the weekly hours): the
 * days before the 1st and after the last day fill the first and last week. Days are "YYYY-MM-DD" in
 * the site's zone; which instants they cover is the caller's business (instantOf).
 */

export const MONTH_PATTERN = /^(\d{4})-(0[1-9]|1[0-2])$/;

export interface GridDay {
  day: string;
  /** The day's number in its month, as shown. */
  date: number;
  inMonth: boolean;
}

export interface MonthGrid {
  /** "2026-11" */
  month: string;
  /** "November 2026" */
  label: string;
  previous: string;
  next: string;
  /** Whole weeks, Monday to Sunday. */
  weeks: GridDay[][];
  /** The first day shown and the day after the last (the range to look bookings up in). */
  from: string;
  until: string;
}

export const WEEKDAY_NAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"] as const;

const monthFormat = new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric", timeZone: "UTC" });

/** "November 2026" for "2026-11". */
export function monthLabel(month: string): string {
  return monthFormat.format(new Date(`${month}-01T00:00:00Z`));
}

/** The month `n` months after "YYYY-MM". */
export function addMonths(month: string, n: number): string {
  const [year, monthNumber] = month.split("-").map(Number);
  const index = (year ?? 1970) * 12 + (monthNumber ?? 1) - 1 + n;
  return `${String(Math.floor(index / 12)).padStart(4, "0")}-${String((index % 12) + 1).padStart(2, "0")}`;
}

/** The weeks of "YYYY-MM" (which must match MONTH_PATTERN). */
export function monthGrid(month: string): MonthGrid {
  const first = `${month}-01`;
  const next = addMonths(month, 1);
  const from = addDays(first, 1 - weekdayOf(first));
  const last = addDays(`${next}-01`, -1);
  const until = addDays(last, 8 - weekdayOf(last));
  const weeks: GridDay[][] = [];
  for (let day = from; day < until; day = addDays(day, 1)) {
    if (weekdayOf(day) === 1) weeks.push([]);
    weeks[weeks.length - 1]?.push({ day, date: Number(day.slice(8)), inMonth: day.startsWith(month) });
  }
  return {
    month,
    label: monthLabel(month),
    previous: addMonths(month, -1),
    next,
    weeks,
    from,
    until,
  };
}
