import { z } from "zod";
import { MAX_QUERY_LENGTH } from "./search-limits";

// In a module of its own so the search field in every page's header does not bring zod with it.
export { MAX_QUERY_LENGTH };
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
