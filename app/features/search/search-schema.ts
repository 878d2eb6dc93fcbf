import { z } from "zod";

/** Longer queries are not searched (the empty state answers them); no real search is this long. */
export const MAX_QUERY_LENGTH = 200;
export const RESULTS_PER_PAGE = 10;

/**
 * The `q` a reader typed, trimmed; null when there is nothing worth asking the database: blank,
 * too long, or holding a NUL (PostgreSQL refuses it in text). Punctuation-only or stop-word-only
 * queries pass here and simply match nothing.
 */
export const searchQuerySchema = z
  .string()
  .trim()
  .min(1)
  .max(MAX_QUERY_LENGTH)
  .refine((q) => !q.includes("\u0000"));

export function parseSearchQuery(raw: string | null): string | null {
  const parsed = searchQuerySchema.safeParse(raw ?? "");
  return parsed.success ? parsed.data : null;
}
