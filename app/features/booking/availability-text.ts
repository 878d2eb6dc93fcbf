import type { DateOverride, WeeklyRange } from "./slots";

/**
 * Availability as the owner types it, one rule a line (the admin's textarea; no zod, pure):
 *   Mon 09:00-12:00, 14:00-17:00     weekly hours (Mon … Sun)
 *   2026-12-24 off                   a day off
 *   2026-12-24..2027-01-02 off       holidays
 *   2026-12-28 10:00-12:00           these hours instead of the weekly ones that day
 */

const WEEKDAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const;
const DAY = "(\\d{4}-\\d{2}-\\d{2})";
const RANGE = /^(\d{1,2}):(\d{2})\s*-\s*(\d{1,2}):(\d{2})$/;

export interface Availability {
  weekly: WeeklyRange[];
  overrides: DateOverride[];
}

function ranges(text: string, line: number): Array<{ startMinute: number; endMinute: number }> {
  return text.split(",").map((part) => {
    const m = RANGE.exec(part.trim());
    if (!m) throw new Error(`Line ${line}: write hours as 09:00-12:00`);
    const [sh, sm, eh, em] = m.slice(1).map(Number) as [number, number, number, number];
    const startMinute = sh * 60 + sm;
    const endMinute = eh * 60 + em;
    if (sm > 59 || em > 59 || endMinute > 1440 || startMinute >= endMinute)
      throw new Error(`Line ${line}: ${part.trim()} is not a range within one day`);
    return { startMinute, endMinute };
  });
}

const validDay = (day: string) =>
  !Number.isNaN(Date.parse(`${day}T00:00:00Z`)) && new Date(`${day}T00:00:00Z`).toISOString().startsWith(day);

/** Parses the text; throws an Error whose message names the line to fix. */
export function parseAvailability(text: string): Availability {
  const weekly: WeeklyRange[] = [];
  const overrides: DateOverride[] = [];
  const lines = text.split(/\r?\n/);
  if (lines.length > 500) throw new Error("At most 500 lines");
  lines.forEach((raw, index) => {
    const line = raw.trim();
    const n = index + 1;
    if (!line || line.startsWith("#")) return;
    const weekday = WEEKDAYS.indexOf(line.slice(0, 3).toLowerCase() as (typeof WEEKDAYS)[number]);
    if (weekday >= 0 && /^[a-z]{3}\s/i.test(line)) {
      for (const r of ranges(line.slice(3), n)) weekly.push({ weekday: weekday + 1, ...r });
      return;
    }
    const m = new RegExp(`^${DAY}(?:\\s*\\.\\.\\s*${DAY})?\\s+(.+)$`).exec(line);
    if (!m) throw new Error(`Line ${n}: start with a weekday (Mon) or a date (2026-12-24)`);
    const firstDay = m[1] ?? "";
    const lastDay = m[2] ?? firstDay;
    if (!validDay(firstDay) || !validDay(lastDay) || lastDay < firstDay) throw new Error(`Line ${n}: not a valid date or range of dates`);
    const rest = (m[3] ?? "").trim();
    if (rest.toLowerCase() === "off") overrides.push({ firstDay, lastDay, startMinute: null, endMinute: null });
    else for (const r of ranges(rest, n)) overrides.push({ firstDay, lastDay, ...r });
  });
  return { weekly, overrides };
}

const hhmm = (minute: number) => `${String(Math.floor(minute / 60)).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}`;

/** The text for the textarea (parseAvailability reads it back to the same rules). */
export function availabilityText({ weekly, overrides }: Availability): string {
  const lines: string[] = [];
  for (let weekday = 1; weekday <= 7; weekday++) {
    const day = weekly.filter((r) => r.weekday === weekday).sort((a, b) => a.startMinute - b.startMinute);
    if (day.length === 0) continue;
    const name = WEEKDAYS[weekday - 1] ?? "mon";
    lines.push(`${name[0]?.toUpperCase()}${name.slice(1)} ${day.map((r) => `${hhmm(r.startMinute)}-${hhmm(r.endMinute)}`).join(", ")}`);
  }
  for (const o of [...overrides].sort((a, b) => a.firstDay.localeCompare(b.firstDay))) {
    const days = o.firstDay === o.lastDay ? o.firstDay : `${o.firstDay}..${o.lastDay}`;
    lines.push(o.startMinute === null || o.endMinute === null ? `${days} off` : `${days} ${hhmm(o.startMinute)}-${hhmm(o.endMinute)}`);
  }
  return lines.join("\n");
}
