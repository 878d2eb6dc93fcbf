import { z } from "zod";
import type { Actor } from "~/lib/permissions";
import { instantOf, wallTimeOf } from "~/lib/time-zone";
import type { Db } from "~/server/db/client.server";
import { parseOrThrow } from "~/server/errors.server";
import { bookingsStartingBetween, ownerTimeZone } from "./booking.server";
import { MONTH_PATTERN, monthGrid, monthLabel } from "./month-grid";
import { timeLabel } from "./slot-picker.server";

const MONTH_MESSAGE = "The month must look like 2026-11 (a year from 1970 to 2999).";

/** `?month=` of the Bookings page: absent is the current month in the site's zone. */
const monthParamSchema = z
  .string()
  .regex(MONTH_PATTERN, MONTH_MESSAGE)
  .refine((month) => Number(month.slice(0, 4)) >= 1970 && Number(month.slice(0, 4)) <= 2999, MONTH_MESSAGE)
  .nullable();

const fullDay = new Intl.DateTimeFormat("en-US", { weekday: "long", month: "long", day: "numeric", timeZone: "UTC" });

/**
 * The admin's month calendar of bookings: the weeks of the month (Monday first) in the site's zone,
 * each day with its calls (any status) at their time there. A malformed month is a 400 that says how.
 */
export async function bookingsMonthView(db: Db, actor: Actor | null, monthParam: string | null, now = Date.now()) {
  const zone = ownerTimeZone();
  const today = wallTimeOf(now, zone).day;
  const month = parseOrThrow(monthParamSchema, monthParam) ?? today.slice(0, 7);
  const grid = monthGrid(month);
  const rows = await bookingsStartingBetween(db, actor, new Date(instantOf(grid.from, 0, zone)), new Date(instantOf(grid.until, 0, zone)));
  const perDay = new Map<string, { id: string; start: string; time: string; name: string; callTypeName: string; cancelled: boolean }[]>();
  for (const row of rows) {
    const start = row.startsAt.getTime();
    const day = wallTimeOf(start, zone).day;
    const list = perDay.get(day) ?? [];
    list.push({
      id: row.id,
      start: row.startsAt.toISOString(),
      time: timeLabel(start, zone),
      name: row.name,
      callTypeName: row.callTypeName,
      cancelled: row.status !== "confirmed",
    });
    perDay.set(day, list);
  }
  return {
    month: grid.month,
    label: grid.label,
    previous: { month: grid.previous, label: monthLabel(grid.previous) },
    next: { month: grid.next, label: monthLabel(grid.next) },
    isCurrentMonth: month === today.slice(0, 7),
    weeks: grid.weeks.map((week) =>
      week.map((d) => ({
        ...d,
        label: fullDay.format(new Date(`${d.day}T00:00:00Z`)),
        today: d.day === today,
        bookings: perDay.get(d.day) ?? [],
      })),
    ),
  };
}

export type BookingsMonthView = Awaited<ReturnType<typeof bookingsMonthView>>;
