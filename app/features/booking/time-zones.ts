/** Intl's zones with UTC, sorted: made once (the full list is drawn on request). */
let known: readonly string[] | undefined;

/**
 * Zones many visitors live in, one or more for every inhabited offset from UTC−10 to UTC+12 (a
 * representative city's zone, whose daylight-saving rules are its region's). The slot page lists
 * these with the zone shown and the site's; "All time zones" lists every one Intl knows.
 */
const COMMON_ZONES = [
  "Pacific/Honolulu",
  "America/Anchorage",
  "America/Los_Angeles",
  "America/Denver",
  "America/Phoenix",
  "America/Chicago",
  "America/Mexico_City",
  "America/New_York",
  "America/Toronto",
  "America/Bogota",
  "America/Halifax",
  "America/Santiago",
  "America/St_Johns",
  "America/Sao_Paulo",
  "America/Argentina/Buenos_Aires",
  "Atlantic/Azores",
  "UTC",
  "Europe/London",
  "Europe/Lisbon",
  "Africa/Lagos",
  "Europe/Paris",
  "Europe/Berlin",
  "Europe/Madrid",
  "Europe/Warsaw",
  "Africa/Johannesburg",
  "Africa/Cairo",
  "Europe/Athens",
  "Europe/Helsinki",
  "Asia/Jerusalem",
  "Europe/Istanbul",
  "Europe/Moscow",
  "Africa/Nairobi",
  "Asia/Riyadh",
  "Asia/Tehran",
  "Asia/Dubai",
  "Asia/Karachi",
  "Asia/Kolkata",
  "Asia/Kathmandu",
  "Asia/Dhaka",
  "Asia/Bangkok",
  "Asia/Jakarta",
  "Asia/Shanghai",
  "Asia/Singapore",
  "Australia/Perth",
  "Asia/Tokyo",
  "Asia/Seoul",
  "Australia/Adelaide",
  "Australia/Brisbane",
  "Australia/Sydney",
  "Pacific/Auckland",
];

/** A zone by the name Intl lists it under (Asia/Kolkata is Asia/Calcutta to ICU), or null when unknown here. */
function listedName(zone: string): string | null {
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** The common zones as the full list names them (so a zone reads the same in both), worked out once. */
let common: readonly string[] | undefined;

/**
 * The IANA zones a visitor can choose for the times shown: with `all`, Intl's whole list (~420, a
 * page of its own), else the common zones; both with the current one, the site's and UTC, sorted.
 */
export function timeZoneChoices(current: string, owner: string, all = false): string[] {
  known ??= [...new Set([...Intl.supportedValuesOf("timeZone"), "UTC"])].sort();
  common ??= COMMON_ZONES.map(listedName).filter((zone): zone is string => zone !== null && known?.includes(zone) === true);
  return [...new Set([...(all ? known : common), current, owner])].sort();
}
