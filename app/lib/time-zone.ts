/**
 * Wall-clock times in a named IANA time zone (the site's, SITE_TIME_ZONE) ⇄ UTC instants, with Intl only.
 * A `datetime-local` input gives "YYYY-MM-DDTHH:mm" with no zone; the site's zone says which instant it is.
 */

const pad = (n: number | undefined, width = 2) => String(n ?? 0).padStart(width, "0");

const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

// One formatter per zone: making one costs far more than formatting with it (slot lists format thousands of times).
const formatters = new Map<string, Intl.DateTimeFormat>();

function parts(date: Date, timeZone: string): Record<string, number> {
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
  const out: Record<string, number> = {};
  for (const part of formatter.formatToParts(date)) if (part.type !== "literal") out[part.type] = Number(part.value);
  return out;
}

/** Offset of `timeZone` from UTC at `date`, in milliseconds (positive east of Greenwich). */
function offsetMs(date: Date, timeZone: string): number {
  const p = parts(date, timeZone);
  const asUtc = Date.UTC(p.year ?? 0, (p.month ?? 1) - 1, p.day ?? 1, p.hour ?? 0, p.minute ?? 0, p.second ?? 0);
  return asUtc - Math.floor(date.getTime() / 1000) * 1000;
}

export function isValidTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone });
    return true;
  } catch {
    return false;
  }
}

/**
 * The UTC instant of a wall-clock time in `timeZone`, or null when the text is not a date-time.
 * A time skipped by a DST change resolves to the instant one offset later (as most calendars do).
 */
export function zonedLocalToUtc(local: string, timeZone: string): Date | null {
  const m = LOCAL_DATE_TIME.exec(local);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1).map((v) => Number(v ?? 0));
  const guess = Date.UTC(year ?? 0, (month ?? 1) - 1, day ?? 1, hour ?? 0, minute ?? 0, second ?? 0);
  if (Number.isNaN(guess)) return null;
  const check = new Date(guess);
  if (check.getUTCMonth() + 1 !== month || check.getUTCDate() !== day) return null;
  // Two passes settle the offset around DST changes.
  const first = guess - offsetMs(new Date(guess), timeZone);
  return new Date(guess - offsetMs(new Date(first), timeZone));
}

/** The `datetime-local` value ("YYYY-MM-DDTHH:mm") showing `date` in `timeZone`. */
export function utcToZonedLocal(date: Date, timeZone: string): string {
  const p = parts(date, timeZone);
  return `${p.year ?? 0}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}`;
}

/** A date and time for people, in `timeZone`, naming the zone: "Nov 24, 2026, 8:00 AM (Europe/Berlin)". */
export function formatInZone(date: Date, timeZone: string): string {
  const text = new Intl.DateTimeFormat("en-US", { timeZone, dateStyle: "medium", timeStyle: "short" }).format(date);
  return `${text} (${timeZone})`;
}

// ---- Days and wall-clock minutes (booking's weekly hours): a day is "YYYY-MM-DD", a minute is minutes after local midnight ----

const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;

export interface WallTime {
  day: string;
  /** Minutes after local midnight, 0–1439. */
  minute: number;
  /** 1 = Monday … 7 = Sunday. */
  weekday: number;
}

/** The zone's offset at an instant, from Intl (whole minutes). */
function intlOffset(instant: number, timeZone: string): number {
  const { year = 1970, month = 1, day = 1, hour = 0, minute = 0 } = parts(new Date(instant), timeZone);
  return Date.UTC(year, month - 1, day, hour, minute) - Math.floor(instant / MINUTE_MS) * MINUTE_MS;
}

// Offsets change only on quarter hours (UTC) in every zone in use, so one Intl call per zone and
// quarter hour serves every instant in it (slot lists ask thousands of times for a few offsets).
const QUARTER_MS = 15 * MINUTE_MS;
const offsetCache = new Map<string, Map<number, number>>();

/** The zone's offset from UTC at an instant, in milliseconds (Berlin in summer: +7,200,000). */
export function offsetAt(instant: number, timeZone: string): number {
  let zone = offsetCache.get(timeZone);
  if (!zone) {
    zone = new Map();
    offsetCache.set(timeZone, zone);
  }
  const quarter = Math.floor(instant / QUARTER_MS);
  let offset = zone.get(quarter);
  if (offset === undefined) {
    if (zone.size > 200_000) zone.clear();
    offset = intlOffset(instant, timeZone);
    zone.set(quarter, offset);
  }
  return offset;
}

/** The local date and time of an instant in `timeZone`. */
export function wallTimeOf(instant: number, timeZone: string): WallTime {
  const local = new Date(Math.floor(instant / MINUTE_MS) * MINUTE_MS + offsetAt(instant, timeZone));
  const dayText = `${pad(local.getUTCFullYear(), 4)}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}`;
  const sunday0 = local.getUTCDay();
  return { day: dayText, minute: local.getUTCHours() * 60 + local.getUTCMinutes(), weekday: sunday0 === 0 ? 7 : sunday0 };
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
