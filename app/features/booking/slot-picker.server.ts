import { z } from "zod";
import { wallTimeOf } from "~/lib/time-zone";
import type { Db } from "~/server/db/client.server";
import { listSlots, ownerTimeZone, type CallType } from "./booking.server";
import { visitorTimeZoneSchema } from "./booking-schema";

/**
 * What the day list and slot list show (/book, rescheduling, the home page's "Reach Me"): slots
 * grouped by the visitor's day and labelled in the visitor's zone (the owner's until one is chosen).
 */

export interface PickerDay {
  day: string;
  label: string;
  count: number;
  /** The day's first times, when asked for (`slotsPerDay`). */
  first?: PickerSlot[];
}

export interface PickerSlot {
  /** ISO instant: the value a booking posts. */
  start: string;
  label: string;
}

export interface PickerData {
  callType: {
    slug: string;
    name: string;
    description: string;
    durationMinutes: number;
    location: CallType["location"];
    questions: string[];
  };
  paused: boolean;
  timeZone: string;
  ownerTimeZone: string;
  days: PickerDay[];
  selectedDay: string | null;
  slots: PickerSlot[];
  selectedSlot: (PickerSlot & { ownerLabel: string; longLabel: string }) | null;
  /** When what is shown may change without a write (SlotList.changesAt): a shared page of it is good until then. */
  changesAt: number | null;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
export const pickerQuerySchema = z.object({
  tz: visitorTimeZoneSchema.optional().catch(undefined),
  day: z.string().regex(DAY).optional().catch(undefined),
  slot: z.iso.datetime({ offset: true }).optional().catch(undefined),
});

export type PickerQuery = z.infer<typeof pickerQuerySchema>;

export function pickerQueryOf(url: URL): PickerQuery {
  return pickerQuerySchema.parse({
    tz: url.searchParams.get("tz") ?? undefined,
    day: url.searchParams.get("day") ?? undefined,
    slot: url.searchParams.get("slot") ?? undefined,
  });
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function format(instant: number, timeZone: string, options: Intl.DateTimeFormatOptions, key: string): string {
  const id = `${key} ${timeZone}`;
  let formatter = formatters.get(id);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", { timeZone, ...options });
    formatters.set(id, formatter);
  }
  return formatter.format(instant);
}

export const timeLabel = (instant: number, timeZone: string) => format(instant, timeZone, { hour: "numeric", minute: "2-digit" }, "time");
export const dayLabel = (instant: number, timeZone: string) =>
  format(instant, timeZone, { weekday: "short", month: "short", day: "numeric" }, "day");
export const longLabel = (instant: number, timeZone: string) =>
  format(instant, timeZone, { dateStyle: "full", timeStyle: "short" }, "long");

/** The picker's data for a call type; `maxDays` limits the day list (the home page shows a few). */
export async function pickerData(
  db: Db,
  callType: CallType,
  query: PickerQuery,
  options: { now?: number; maxDays?: number; slotsPerDay?: number; exceptBookingId?: string } = {},
): Promise<PickerData> {
  const list = await listSlots(db, callType, options.now, options.exceptBookingId);
  const owner = ownerTimeZone();
  const timeZone = query.tz ?? owner;
  const byDay = new Map<string, { label: string; slots: number[] }>();
  for (const slot of list.slots) {
    const day = wallTimeOf(slot.start, timeZone).day;
    let entry = byDay.get(day);
    if (!entry) {
      if (options.maxDays !== undefined && byDay.size >= options.maxDays) break;
      entry = { label: dayLabel(slot.start, timeZone), slots: [] };
      byDay.set(day, entry);
    }
    entry.slots.push(slot.start);
  }
  const slotOf = (start: number) => ({ start: new Date(start).toISOString(), label: timeLabel(start, timeZone) });
  const perDay = options.slotsPerDay;
  const days = [...byDay].map(([day, entry]) => ({
    day,
    label: entry.label,
    count: entry.slots.length,
    ...(perDay ? { first: entry.slots.slice(0, perDay).map(slotOf) } : {}),
  }));
  const chosen = query.slot ? Date.parse(query.slot) : NaN;
  const offered = list.slots.find((s) => s.start === chosen);
  const slotDay = offered ? wallTimeOf(offered.start, timeZone).day : undefined;
  const selectedDay = query.day && byDay.has(query.day) ? query.day : slotDay && byDay.has(slotDay) ? slotDay : (days[0]?.day ?? null);
  const slots = (selectedDay ? (byDay.get(selectedDay)?.slots ?? []) : []).map(slotOf);
  return {
    callType: {
      slug: callType.slug,
      name: callType.name,
      description: callType.description,
      durationMinutes: callType.durationMinutes,
      location: callType.location,
      questions: callType.questions,
    },
    paused: list.paused,
    timeZone,
    ownerTimeZone: owner,
    days,
    selectedDay,
    slots,
    selectedSlot: offered
      ? {
          start: new Date(offered.start).toISOString(),
          label: timeLabel(offered.start, timeZone),
          longLabel: longLabel(offered.start, timeZone),
          ownerLabel: longLabel(offered.start, owner),
        }
      : null,
    changesAt: list.changesAt,
  };
}
