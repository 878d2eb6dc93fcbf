// One formatter each: toLocaleDateString with options builds a new Intl.DateTimeFormat on every call,
// a visible share of a listing's render (12 cards).
const SHORT = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" });
const LONG = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });

/** SPEC §9: dates in US English — short on cards, long on the post page. UTC so server and browser agree. */
export function shortDate(value: Date | string): string {
  return formatDate(SHORT, value);
}

export function longDate(value: Date | string): string {
  return formatDate(LONG, value);
}

/** As toLocaleDateString: a value that is no date reads "Invalid Date" (format() would throw). */
function formatDate(format: Intl.DateTimeFormat, value: Date | string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? "Invalid Date" : format.format(date);
}
