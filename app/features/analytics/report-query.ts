import { z } from "zod";
import { DIMENSIONS, type Dimension } from "./dimensions";

/** The preset periods and their length in days (each ends today, site time zone). */
export const PERIODS = { today: 1, "7d": 7, "30d": 30, "12m": 365 } as const;
export type Period = keyof typeof PERIODS;
/** A preset, or "custom": whole days from one date to another. */
export type ReportPeriod = Period | "custom";

/** The longest custom period: a year, leap day included (a longer span reads better in 12-month steps). */
export const MAX_CUSTOM_DAYS = 366;

/** What the owner reads when a custom period cannot be shown (the report falls back to 7 days). */
export const PERIOD_TEXT = {
  missing: "Enter both dates of the custom period (From and To).",
  invalid: "Enter the custom period's dates as real calendar dates (YYYY-MM-DD).",
  reversed: "The custom period's From date must be on or before its To date.",
  future: "The custom period cannot end after today.",
  tooLong: `A custom period can be at most ${MAX_CUSTOM_DAYS} days long.`,
} as const;

const enteredDate = z.string().trim().max(20).optional().catch(undefined);

/**
 * The report's address: ?period=7d&dimension=referrer&value=linkedin.com, or
 * ?period=custom&from=2026-01-01&to=2026-01-31. An unknown preset or filter reads as the default;
 * a custom period's dates are checked by the report (statisticsReport), which says what is wrong.
 */
export const reportQuerySchema = z.object({
  period: z.enum(["today", "7d", "30d", "12m", "custom"]).catch("7d"),
  from: enteredDate,
  to: enteredDate,
  dimension: z.enum(DIMENSIONS).optional().catch(undefined),
  value: z.string().max(300).optional().catch(undefined),
});

export interface ReportQuery {
  period: ReportPeriod;
  /** The dates entered for a custom period, as typed (checked by the report). */
  custom: { from: string; to: string } | null;
  filter: { dimension: Dimension; value: string } | null;
}

export function reportQueryOf(url: URL): ReportQuery {
  const query = reportQuerySchema.parse(Object.fromEntries(url.searchParams));
  const filter = query.dimension && query.value !== undefined ? { dimension: query.dimension, value: query.value } : null;
  const custom = query.period === "custom" ? { from: query.from ?? "", to: query.to ?? "" } : null;
  return { period: query.period, custom, filter };
}

/** A calendar date written YYYY-MM-DD that exists (2026-02-30 does not). */
export function isCalendarDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T12:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/** Whole days from `from` to `to`, both included. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T12:00:00Z`) - Date.parse(`${from}T12:00:00Z`)) / 86_400_000) + 1;
}

/**
 * The custom period's problem, or null when it can be shown: both dates real, in order, not after
 * today and at most MAX_CUSTOM_DAYS long.
 */
export function customPeriodProblem(custom: { from: string; to: string }, today: string): string | null {
  if (!custom.from || !custom.to) return PERIOD_TEXT.missing;
  if (!isCalendarDay(custom.from) || !isCalendarDay(custom.to)) return PERIOD_TEXT.invalid;
  if (custom.from > custom.to) return PERIOD_TEXT.reversed;
  if (custom.to > today) return PERIOD_TEXT.future;
  if (daysBetween(custom.from, custom.to) > MAX_CUSTOM_DAYS) return PERIOD_TEXT.tooLong;
  return null;
}

export interface Totals {
  views: number;
  visitors: number;
  visits: number;
  bounces: number;
  medianVisitSeconds: number;
}

export interface TableRow {
  value: string;
  views: number;
  visitors: number;
  visits: number;
}

/** The conversions, in the report's order, as the owner reads them (the kinds of analytics_conversions). */
export const CONVERSION_LABELS = { contact: "Contact messages", subscription: "Subscriptions", booking: "Booked calls" } as const;
export type ConversionKindName = keyof typeof CONVERSION_LABELS;

/** A conversion table's row: conversions of each kind whose visit had this value, and their sum. */
export interface ConversionRow {
  value: string;
  total: number;
  kinds: Record<ConversionKindName, number>;
}

export interface Report {
  /** The period shown: "7d" when a custom period could not be (periodError says why). */
  period: ReportPeriod;
  from: string;
  to: string;
  /** Today in the site's time zone (the latest day a period may end on). */
  today: string;
  /** The custom dates as entered, to fill the form again (also when they were refused). */
  custom: { from: string; to: string } | null;
  periodError: string | null;
  totals: Totals;
  previous: Totals;
  series: { day: string; views: number; visitors: number }[];
  tables: Record<Dimension, TableRow[]>;
  conversions: { kind: string; count: number }[];
  previousConversions: { kind: string; count: number }[];
  conversionsBy: Record<"entry" | "referrer" | "campaign", ConversionRow[]> & {
    /** With the post's visitors in the period (null when it is not among the top pages), for the conversion rate. */
    post: (ConversionRow & { visitors: number | null })[];
  };
  realtime: number;
  sampled: number;
  filter: { dimension: Dimension; value: string } | null;
}
