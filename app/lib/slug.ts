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
