import { addDays, DAY_MS, instantOf, offsetAt, wallTimeOf, weekdayOf } from "~/lib/time-zone";

/**
 * Slot arithmetic, the one home of the rule "which times can a visitor book": pure, so it is
 * tested with property tests across DST changes (slots.test.ts) and run by the public page, the
 * home page and the booking check alike. Instants are milliseconds since the epoch (UTC); the
 * owner's hours are wall-clock times in the owner's zone.
 */

export interface HourRange {
  /** Minutes after local midnight; start < end ≤ 1440. */
  startMinute: number;
  endMinute: number;
}

export interface WeeklyRange extends HourRange {
  /** 1 = Monday … 7 = Sunday. */
  weekday: number;
}

/** Days first..last off (no minutes), or these hours instead of the weekly hours on those days. */
export interface DateOverride {
  firstDay: string;
  lastDay: string;
  startMinute: number | null;
  endMinute: number | null;
}

export interface CallTypeRules {
  durationMinutes: number;
  incrementMinutes: number;
  bufferBeforeMinutes: number;
  bufferAfterMinutes: number;
  minimumNoticeMinutes: number;
  horizonDays: number;
  dailyCap: number | null;
}

export interface Interval {
  start: number;
  end: number;
}

export interface SlotInput {
  timeZone: string;
  rules: CallTypeRules;
  weekly: readonly WeeklyRange[];
  overrides: readonly DateOverride[];
  /**
   * Times the call and its buffers may not touch: confirmed bookings (their own buffers included,
   * as the database's exclusion constraint compares them) and the owner's calendar's busy times.
   */
  busy: readonly Interval[];
  /** Confirmed calls of this type per owner-local day, for the daily cap. */
  bookedPerDay?: ReadonlyMap<string, number>;
  now: number;
  /** Only slots starting in [from, until) (e.g. one day); default: from now to the horizon. */
  from?: number;
  until?: number;
}

export interface Slot {
  start: number;
  end: number;
  /** The owner-local day the slot starts on. */
  day: string;
}

const MINUTE_MS = 60_000;

/** The hour ranges of one owner-local day: an override's (off or replacing), else the weekly ones. */
export function hoursOfDay(day: string, weekly: readonly WeeklyRange[], overrides: readonly DateOverride[]): HourRange[] {
  const matching = overrides.filter((o) => o.firstDay <= day && day <= o.lastDay);
  if (matching.some((o) => o.startMinute === null || o.endMinute === null)) return [];
  if (matching.length > 0) {
    return matching
      .map((o) => ({ startMinute: o.startMinute ?? 0, endMinute: o.endMinute ?? 0 }))
      .sort((a, b) => a.startMinute - b.startMinute);
  }
  const weekday = weekdayOf(day);
  return weekly
    .filter((r) => r.weekday === weekday)
    .map(({ startMinute, endMinute }) => ({ startMinute, endMinute }))
    .sort((a, b) => a.startMinute - b.startMinute);
}

/** Sorted, merged copy of intervals (touching ones joined). */
export function mergeIntervals(intervals: readonly Interval[]): Interval[] {
  const sorted = intervals.filter((i) => i.end > i.start).sort((a, b) => a.start - b.start);
  const merged: Interval[] = [];
  for (const interval of sorted) {
    const last = merged[merged.length - 1];
    if (last && interval.start <= last.end) last.end = Math.max(last.end, interval.end);
    else merged.push({ ...interval });
  }
  return merged;
}

/** The instants a call starting at `start` blocks: the call with its buffers. */
export function blockedInterval(start: number, rules: CallTypeRules): Interval {
  return {
    start: start - rules.bufferBeforeMinutes * MINUTE_MS,
    end: start + (rules.durationMinutes + rules.bufferAfterMinutes) * MINUTE_MS,
  };
}

/** The last instant a slot may start at: the booking horizon. */
export function horizonEnd(now: number, rules: CallTypeRules): number {
  return now + rules.horizonDays * DAY_MS;
}

/** The first instant a slot may start at: the minimum notice. */
export function earliestStart(now: number, rules: CallTypeRules): number {
  return now + rules.minimumNoticeMinutes * MINUTE_MS;
}

function insideByClock(start: number, day: string, range: { startMinute: number; endMinute: number }, timeZone: string): boolean {
  const wall = wallTimeOf(start, timeZone);
  return wall.day === day && range.startMinute <= wall.minute && wall.minute < range.endMinute;
}

/**
 * Every bookable slot, ascending: inside the day's hours (the whole call, without its buffers,
 * which may reach outside the hours), starting on the increment from each range's start, after
 * the minimum notice and before the horizon, its blocked interval clear of every busy interval,
 * on days under the daily cap.
 */
export function availableSlots(input: SlotInput): Slot[] {
  const { rules, now } = input;
  return slotsStartingWithin(
    input,
    Math.max(input.from ?? now, earliestStart(now, rules)),
    Math.min(input.until ?? Infinity, horizonEnd(now, rules)),
  );
}

/**
 * The slots starting in [from, until) by the hours, the busy times and the daily cap alone (the
 * minimum notice and the horizon are the caller's `from` and `until`). Whether a time is a slot
 * does not depend on the window asked for, so the slots of a wider window, kept and cut to a
 * narrower one later, are exactly the narrower window's (the slot cache relies on it).
 */
export function slotsStartingWithin(input: Omit<SlotInput, "now" | "from" | "until">, from: number, until: number): Slot[] {
  const { timeZone, rules } = input;
  if (!(from < until)) return [];
  const busy = mergeIntervals(input.busy);
  const duration = rules.durationMinutes * MINUTE_MS;
  const step = rules.incrementMinutes * MINUTE_MS;
  const slots: Slot[] = [];
  let busyIndex = 0;
  const lastDay = wallTimeOf(until, timeZone).day;
  for (let day = addDays(wallTimeOf(from, timeZone).day, -1); day <= lastDay; day = addDays(day, 1)) {
    if (rules.dailyCap !== null && (input.bookedPerDay?.get(day) ?? 0) >= rules.dailyCap) continue;
    for (const range of hoursOfDay(day, input.weekly, input.overrides)) {
      const rangeStart = instantOf(day, range.startMinute, timeZone);
      const rangeEnd = instantOf(day, range.endMinute, timeZone);
      // Across a clock change a range's instants and its wall-clock times part: the repeated hour at
      // fall-back (02:00 again, for 02:30-03:00) and the hour after a spring-forward gap (03:00, for
      // 00:00-02:30) lie outside the range by the owner's clock and are not offered.
      const clockChanges = offsetAt(rangeStart, timeZone) !== offsetAt(rangeEnd, timeZone);
      for (let start = rangeStart; start + duration <= rangeEnd; start += step) {
        if (start < from) continue;
        if (start >= until) break;
        if (clockChanges && !insideByClock(start, day, range, timeZone)) continue;
        const blocked = blockedInterval(start, rules);
        while (busyIndex > 0 && (busy[busyIndex - 1]?.end ?? -Infinity) > blocked.start) busyIndex--;
        while (busyIndex < busy.length && (busy[busyIndex]?.end ?? Infinity) <= blocked.start) busyIndex++;
        const next = busy[busyIndex];
        if (next && next.start < blocked.end) continue;
        slots.push({ start, end: start + duration, day });
      }
    }
  }
  // Overlapping ranges of one day offer a time once.
  slots.sort((a, b) => a.start - b.start);
  return slots.filter((slot, i) => i === 0 || slot.start !== slots[i - 1]?.start);
}

/** Whether `start` is exactly one of the slots offered now (the server's check at submit time). */
export function isOfferedSlot(input: Omit<SlotInput, "from" | "until">, start: number): boolean {
  return availableSlots({ ...input, from: start, until: start + 1 }).some((slot) => slot.start === start);
}

/** Slots grouped by owner-local day, in order. */
export function slotsByDay(slots: readonly Slot[]): Map<string, Slot[]> {
  const days = new Map<string, Slot[]>();
  for (const slot of slots) {
    const list = days.get(slot.day);
    if (list) list.push(slot);
    else days.set(slot.day, [slot]);
  }
  return days;
}
