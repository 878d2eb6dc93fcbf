/**
 * SPEC §4: lowercase the title, replace each run of non-alphanumeric characters with one hyphen,
 * trim leading and trailing hyphens. Returns '' when the title has no letters or digits.
 */
export function slugify(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/** The nth candidate for a slug that clashes: base, base-2, base-3, ... */
export function slugCandidate(base: string, n: number): string {
  return n <= 1 ? base : `${base}-${n}`;
}

/** The longest URL slug an editor may set (a derived slug is cut by the title's own limit). */
export const SLUG_MAX = 120;

export const SLUG_MESSAGES = {
  required: "URL slug is required",
  format: "URL slug may only contain lowercase letters a-z, digits 0-9 and single hyphens between them (e.g. my-first-post)",
  tooLong: `URL slug must be at most ${SLUG_MAX} characters`,
} as const;

const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** The one slug rule: what `slugify` produces, within SLUG_MAX; returns the message that breaks it, or null. */
export function slugProblem(slug: string): string | null {
  if (slug === "") return SLUG_MESSAGES.required;
  if (slug.length > SLUG_MAX) return SLUG_MESSAGES.tooLong;
  if (!SLUG_PATTERN.test(slug)) return SLUG_MESSAGES.format;
  return null;
}
