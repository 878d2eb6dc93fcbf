/** The IANA zones a visitor can choose for the times shown (Intl's list, with the current one and UTC). */
export function timeZoneChoices(current: string): string[] {
  const zones = new Set(Intl.supportedValuesOf("timeZone"));
  zones.add("UTC");
  zones.add(current);
  return [...zones].sort();
}
