import { z } from "zod";
import { CATEGORIES, parseCategory } from "~/lib/categories";
import { POST_MESSAGES } from "~/features/posts/write/post-schema";

/**
 * Field readers for exported rows. CSV gives every value as text ("" for null, "t"/"true" for true);
 * JSON gives real types. Both read the same.
 */

function blankToUndefined(value: unknown): unknown {
  if (value === null || value === undefined) return undefined;
  if (typeof value === "string" && value.trim() === "") return undefined;
  return value;
}

const TRUE = new Set(["true", "t", "1", "yes"]);
const FALSE = new Set(["false", "f", "0", "no"]);

export const flag = z.preprocess(
  (value) => {
    const v = blankToUndefined(value);
    if (v === undefined) return false;
    if (typeof v === "number") return v === 1 ? true : v === 0 ? false : v;
    if (typeof v !== "string") return v;
    const lower = v.trim().toLowerCase();
    return TRUE.has(lower) ? true : FALSE.has(lower) ? false : v;
  },
  z.boolean({ error: "must be true or false" }),
);

/** PostgreSQL's text form ("2024-01-15 10:30:00.123+00") or ISO 8601. */
function toDate(value: unknown): unknown {
  const v = blankToUndefined(value);
  if (typeof v !== "string") return v;
  const iso = v
    .trim()
    .replace(" ", "T")
    .replace(/([+-]\d{2})$/, "$1:00");
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? v : date;
}

export const timestamp = z.preprocess(toDate, z.date({ error: "must be a date and time" }));
export const optionalTimestamp = z.preprocess(toDate, z.date({ error: "must be a date and time" }).optional());

export const optionalText = z.preprocess(blankToUndefined, z.string().trim().optional());

export const id = z.preprocess(
  (v) => (typeof v === "number" ? String(v) : blankToUndefined(v)),
  z.string({ error: "is missing" }).trim().min(1, "is missing").max(200, "is too long"),
);

export const order = z.preprocess(
  (v) => {
    const b = blankToUndefined(v);
    return typeof b === "string" ? Number(b) : (b ?? 0);
  },
  z.number({ error: "must be a whole number" }).int("must be a whole number"),
);

/** One of the seven, in any letter case, or the data spelling 'Friendship'. */
export const category = z.preprocess(
  (v) => (typeof v === "string" ? (parseCategory(v) ?? v) : v),
  z.enum(CATEGORIES, { error: POST_MESSAGES.categoryInvalid }),
);
