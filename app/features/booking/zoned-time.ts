/**
 * Wall-clock time in an IANA time zone, with Intl only (no time zone data of our own). A day is a
 * "YYYY-MM-DD" string; a minute is minutes after that day's local midnight (0–1440).
 */

const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Whether Intl knows the zone (a valid IANA name). */
export function isTimeZone(timeZone: string): boolean {
  try {
    formatterOf(timeZone);
    return true;
  } catch {
    return false;
  }
}

export interface WallTime {
  day: string;
  /** Minutes after local midnight, 0–1439. */
  minute: number;
  /** 1 = Monday … 7 = Sunday. */
  weekday: number;
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** The local date and time of an instant in `timeZone`. */
export function wallTimeOf(instant: number, timeZone: string): WallTime {
  const parts: Record<string, number> = {};
  for (const part of formatterOf(timeZone).formatToParts(new Date(instant))) {
    if (part.type !== "literal") parts[part.type] = Number(part.value);
  }
  const { year = 1970, month = 1, day = 1, hour = 0, minute = 0 } = parts;
  const dayText = `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
  return { day: dayText, minute: hour * 60 + minute, weekday: weekdayOf(dayText) };
}

/** The zone's offset from UTC at an instant, in milliseconds (Berlin in summer: +7,200,000); whole minutes. */
export function offsetAt(instant: number, timeZone: string): number {
  const wall = wallTimeOf(instant, timeZone);
  return dayStartUtc(wall.day) + wall.minute * MINUTE_MS - Math.floor(instant / MINUTE_MS) * MINUTE_MS;
}

/** Midnight UTC of a day, in milliseconds. */
export function dayStartUtc(day: string): number {
  const [y, m, d] = day.split("-").map(Number);
  return Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1);
}

/** The day `n` days after `day`. */
export function addDays(day: string, n: number): string {
  return new Date(dayStartUtc(day) + n * DAY_MS).toISOString().slice(0, 10);
}

/** 1 = Monday … 7 = Sunday. */
export function weekdayOf(day: string): number {
  const sunday0 = new Date(dayStartUtc(day)).getUTCDay();
  return sunday0 === 0 ? 7 : sunday0;
}

/**
 * The instant of a local wall time. A time skipped by a spring-forward change is read with the
 * offset before the change (02:30 in Berlin's gap is 03:30 summer time); a time that occurs twice
 * at a fall-back change is its first occurrence. Assumes at most one change within a day.
 */
export function instantOf(day: string, minute: number, timeZone: string): number {
  const local = dayStartUtc(day) + minute * MINUTE_MS;
  const before = local - offsetAt(local - DAY_MS, timeZone);
  const after = local - offsetAt(local + DAY_MS, timeZone);
  const fits = (t: number) => t + offsetAt(t, timeZone) === local;
  if (fits(before)) return Math.min(before, fits(after) ? after : before);
  return fits(after) ? after : before;
}
