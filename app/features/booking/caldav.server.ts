import { isIP } from "node:net";
import type { DAVResponse } from "tsdav";
import { isNonPublicAddress, outboundFetch, OutboundFetchError } from "~/server/outbound-fetch.server";
import type { Interval } from "./slots";

/**
 * Reads a CalDAV calendar's events for a time window: one calendar-query REPORT (RFC 4791 §7.8) with
 * a time-range filter, asking for each event's whole iCalendar text. Recurring events come back as
 * their master with RRULE, EXDATE and overrides, and are expanded here exactly like an ICS feed
 * (parseBusyTimes), rather than by the server, whose expansion differs from server to server.
 *
 * tsdav builds the request and parses the multistatus answer; every request goes through the one
 * outbound guard (outboundFetch: SSRF rules, one deadline, a size cap) by tsdav's `fetch` option.
 */

/** The purpose a CalDAV password is sealed for (a key of its own, derived from the app secret). */
export const CALDAV_PASSWORD_PURPOSE = "booking-caldav-password";

/**
 * A CalDAV address is read over https://, or http:// to a server on this machine or a private network
 * (a self-hosted server beside the site): a password is never sent in clear over the internet.
 */
export function isCaldavAddressAllowed(url: URL): boolean {
  if (url.protocol === "https:") return true;
  if (url.protocol !== "http:") return false;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  return /^localhost\.?$/i.test(host) || (isIP(host) !== 0 && isNonPublicAddress(host));
}

export const CALDAV_HTTP_REFUSED = "Use the calendar's https:// address (http:// only for a server on this machine or your own network)";

const utcStamp = (ms: number) => `${new Date(ms).toISOString().slice(0, 19).replace(/[-:]/g, "")}Z`;

/** The reason an administrator reads for an answer that is not the calendar's events. */
function describeFailure(error: unknown): Error {
  if (error instanceof OutboundFetchError && error.status !== undefined) {
    const status = error.status;
    if (status === 401) return new Error("The server refused the user name or password (HTTP 401)");
    if (status === 403) return new Error("This user may not read this calendar (HTTP 403)");
    if (status === 404) return new Error("No calendar at this address (HTTP 404)");
    if (status >= 300 && status < 400) return new Error(`The server redirected (HTTP ${status}): enter the calendar's own address`);
    if (status === 405 || status === 501)
      return new Error(`This address does not answer calendar queries (HTTP ${status}): enter the calendar's own CalDAV address`);
  }
  // tsdav's own failure for a refused entry in the answer carries the server's text: keep the status only.
  if (error instanceof Error && error.message.startsWith("Collection query failed")) {
    const status = /failed: (\d{3})/.exec(error.message)?.[1];
    return new Error(`The server refused the calendar query${status ? ` (HTTP ${status})` : ""}`);
  }
  return error instanceof Error ? error : new Error(String(error));
}

interface CaldavAccount {
  url: string;
  username: string;
  password: string;
}

/** tsdav's `fetch`, answered by outboundFetch (which throws on a status outside 2xx). */
function guardedFetch(timeoutMs: number, maxBytes: number): typeof globalThis.fetch {
  return async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    const headers = new Headers(init?.headers);
    const contentType = headers.get("content-type") ?? "application/xml; charset=utf-8";
    headers.delete("content-type");
    const method = (init?.method ?? "GET").toUpperCase();
    if (method !== "REPORT") throw new OutboundFetchError(`unexpected CalDAV request ${method}`);
    const response = await outboundFetch(url, {
      timeoutMs,
      maxBytes,
      isAllowed: isCaldavAddressAllowed,
      accept: "application/xml, text/xml;q=0.9",
      userAgent: "7fs-portfolio-calendar-reader/1.0",
      body: { contentType, text: typeof init?.body === "string" ? init.body : "", method: "REPORT" },
      headers: Object.fromEntries(headers),
      maxRedirects: 0,
    });
    return new Response(new TextDecoder("utf-8").decode(response.bytes), {
      status: response.status,
      headers: { "content-type": response.contentType ?? "application/octet-stream" },
    });
  };
}

/** The calendar-data of one entry of the answer (text, or CDATA). */
function calendarDataOf(entry: DAVResponse): string | null {
  const data: unknown = entry.props?.calendarData;
  if (typeof data === "string") return data;
  if (data && typeof data === "object") {
    const { _cdata, _text } = data as { _cdata?: unknown; _text?: unknown };
    if (typeof _cdata === "string") return _cdata;
    if (typeof _text === "string") return _text;
  }
  return null;
}

/**
 * The iCalendar texts of the calendar's events that overlap `window` (one per calendar object).
 * Throws an Error whose message an administrator can act on (wrong password, no calendar there, …).
 */
export async function readCaldavEvents(
  account: CaldavAccount,
  window: Interval,
  limits: { timeoutMs: number; maxBytes: number },
): Promise<string[]> {
  const authorization = `Basic ${Buffer.from(`${account.username}:${account.password}`, "utf8").toString("base64")}`;
  let answer: DAVResponse[];
  try {
    // Loaded on the first calendar read: most sites never connect a CalDAV calendar (~8 MB resident).
    const { calendarQuery } = await import("tsdav");
    answer = await calendarQuery({
      url: account.url,
      props: { "d:getetag": {}, "c:calendar-data": {} },
      filters: {
        "comp-filter": {
          _attributes: { name: "VCALENDAR" },
          "comp-filter": {
            _attributes: { name: "VEVENT" },
            "time-range": { _attributes: { start: utcStamp(window.start), end: utcStamp(window.end) } },
          },
        },
      },
      depth: "1",
      headers: { authorization },
      fetch: guardedFetch(limits.timeoutMs, limits.maxBytes),
    });
  } catch (error) {
    throw describeFailure(error);
  }
  const texts: string[] = [];
  for (const entry of answer) {
    if (!entry.props) throw new Error("The address did not answer as a CalDAV calendar");
    const text = calendarDataOf(entry);
    if (text) texts.push(text);
  }
  return texts;
}
