import { z } from "zod";
import { DIMENSIONS, type Dimension } from "./dimensions";

/** The report's address: ?period=7d&dimension=referrer&value=linkedin.com (a bad query reads as the defaults). */
export const reportQuerySchema = z.object({
  period: z.enum(["today", "7d", "30d", "12m"]).catch("7d"),
  dimension: z.enum(DIMENSIONS).optional().catch(undefined),
  value: z.string().max(300).optional().catch(undefined),
});

export function reportQueryOf(url: URL) {
  const query = reportQuerySchema.parse(Object.fromEntries(url.searchParams));
  const filter = query.dimension && query.value !== undefined ? { dimension: query.dimension, value: query.value } : null;
  return { period: query.period, filter };
}

export const PERIODS = { today: 1, "7d": 7, "30d": 30, "12m": 365 } as const;
export type Period = keyof typeof PERIODS;

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

export interface Report {
  from: string;
  to: string;
  totals: Totals;
  previous: Totals;
  series: { day: string; views: number; visitors: number }[];
  tables: Record<Dimension, TableRow[]>;
  conversions: { kind: string; count: number }[];
  conversionsBy: Record<"entry" | "referrer" | "campaign" | "post", { value: string; count: number }[]>;
  realtime: number;
  sampled: number;
  filter: { dimension: Dimension; value: string } | null;
}
