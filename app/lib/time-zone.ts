/**
 * Wall-clock times in a named IANA time zone (the site's, SITE_TIME_ZONE) ⇄ UTC instants, with Intl only.
 * A `datetime-local` input gives "YYYY-MM-DDTHH:mm" with no zone; the site's zone says which instant it is.
 */

const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

function parts(date: Date, timeZone: string): Record<string, number> {
  const formatter = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  });
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
  const pad = (n: number | undefined) => String(n ?? 0).padStart(2, "0");
  return `${p.year ?? 0}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}`;
}

/** A date and time for people, in `timeZone`, naming the zone: "Nov 24, 2026, 8:00 AM (Europe/Berlin)". */
export function formatInZone(date: Date, timeZone: string): string {
  const text = new Intl.DateTimeFormat("en-US", { timeZone, dateStyle: "medium", timeStyle: "short" }).format(date);
  return `${text} (${timeZone})`;
}
