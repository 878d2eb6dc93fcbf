/** Intl's zones with UTC, sorted: made once (a slot page lists them on every request). */
let known: readonly string[] | undefined;

/** The IANA zones a visitor can choose for the times shown (Intl's list, with the current one and UTC). */
export function timeZoneChoices(current: string): string[] {
  known ??= [...new Set([...Intl.supportedValuesOf("timeZone"), "UTC"])].sort();
  return known.includes(current) ? [...known] : [...known, current].sort();
}
