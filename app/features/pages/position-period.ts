/**
 * "Sort by date" for the Recent Roles timeline: a role's period is free text ("02/2022 – 07/2025",
 * "2019 – Present", "Mar 2020 - Jun 2021"), read here into months so the list can go most recent
 * first: by end (an open end — "Present", "Now", "Current" or none — is the latest), then by start.
 */

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const OPEN_END = /^(present|now|current|today|ongoing)$/i;

/** Months since year 0 of one end of a period ("07/2025", "2025-07", "Jul 2025", "July 2025", "2025"); null when unreadable. */
function monthOf(text: string, end: boolean): number | null {
  const value = text.trim().toLowerCase();
  let match = /^(\d{1,2})[/.](\d{4})$/.exec(value);
  if (match) return monthNumber(Number(match[2]), Number(match[1]));
  match = /^(\d{4})[-/.](\d{1,2})$/.exec(value);
  if (match) return monthNumber(Number(match[1]), Number(match[2]));
  match = /^([a-z]{3,})\.?\s+(\d{4})$/.exec(value);
  if (match) {
    const month = MONTHS.indexOf(match[1]!.slice(0, 3)) + 1;
    return month === 0 ? null : monthNumber(Number(match[2]), month);
  }
  match = /^(\d{4})$/.exec(value);
  // A bare year: its last month as an end, its first as a start.
  if (match) return monthNumber(Number(match[1]), end ? 12 : 1);
  return null;
}

function monthNumber(year: number, month: number): number | null {
  return month >= 1 && month <= 12 ? year * 12 + month - 1 : null;
}

export interface PeriodKey {
  start: number;
  end: number;
}

/** The period as months (an open end: Infinity), or null when it cannot be read. */
export function periodKey(period: string): PeriodKey | null {
  const parts = period.split(/\s+[-–—]\s+|\s*[–—]\s*|\s+to\s+/i).filter((part) => part.trim() !== "");
  if (parts.length === 0 || parts.length > 2) return null;
  const start = monthOf(parts[0]!, false);
  if (start === null) return null;
  if (parts.length === 1) return { start, end: start };
  const endText = parts[1]!.trim();
  const end = OPEN_END.test(endText) ? Number.POSITIVE_INFINITY : monthOf(endText, true);
  return end === null ? null : { start, end };
}

/**
 * The list most recent first (latest end, then latest start); roles whose period cannot be read keep
 * their order after the dated ones. Stable: equal periods keep the owner's order.
 */
export function sortByPeriod<T extends { period: string }>(rows: readonly T[]): T[] {
  const keyed = rows.map((row, index) => ({ row, index, key: periodKey(row.period) }));
  keyed.sort((a, b) => {
    if (!a.key || !b.key) return a.key ? -1 : b.key ? 1 : a.index - b.index;
    return b.key.end - a.key.end || b.key.start - a.key.start || a.index - b.index;
  });
  return keyed.map((entry) => entry.row);
}
