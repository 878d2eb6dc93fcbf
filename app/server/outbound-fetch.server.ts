import dns from "node:dns";
import { BlockList, isIP, type LookupFunction } from "node:net";
import type { Agent, Response } from "undici";
import { getEnv } from "~/server/env.server";
import { readBodyUpTo } from "~/server/form.server";

/**
 * Every request the server makes to an address someone typed (feeds, calendar feeds, importer images)
 * goes through `outboundFetch`. The address actually connected to is checked inside the DNS lookup of
 * the connection itself, so a name that resolves to a public address for a check and to 127.0.0.1 for
 * the connection (DNS rebinding) is still refused. Redirects are followed by hand and each target is
 * checked again.
 */
export class OutboundFetchError extends Error {
  /** The HTTP status when the server answered with an error (e.g. 410 for a page that is gone). */
  readonly status: number | undefined;
  constructor(message: string, status?: number) {
    super(message);
    this.name = "OutboundFetchError";
    this.status = status;
  }
}

const blocked = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8], // "this network", unspecified
  ["10.0.0.0", 8], // RFC 1918
  ["100.64.0.0", 10], // CGNAT
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local, cloud metadata (169.254.169.254)
  ["172.16.0.0", 12], // RFC 1918
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.168.0.0", 16], // RFC 1918
  ["198.18.0.0", 15], // benchmarking
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
] as const)
  blocked.addSubnet(network, prefix, "ipv4");
for (const [network, prefix] of [
  ["::", 128], // unspecified
  ["::1", 128], // loopback
  ["fc00::", 7], // unique local (ULA)
  ["fe80::", 10], // link-local
  ["ff00::", 8], // multicast
] as const)
  blocked.addSubnet(network, prefix, "ipv6");

/** True for loopback, private, link-local, CGNAT, multicast, reserved and unspecified addresses. */
export function isNonPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, "ipv4");
  if (family !== 6) return true;
  const lower = address.toLowerCase();
  // IPv4-mapped and IPv4-compatible IPv6 addresses reach the embedded IPv4 address.
  const embedded = /^(?:::ffff:|::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower)?.[1];
  if (embedded) return blocked.check(embedded, "ipv4");
  const mappedHex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (mappedHex) {
    const n = (parseInt(mappedHex[1]!, 16) << 16) | parseInt(mappedHex[2]!, 16);
    return blocked.check([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join("."), "ipv4");
  }
  return blocked.check(lower, "ipv6");
}

function refusal(host: string, address: string): OutboundFetchError {
  return new OutboundFetchError(
    `address not allowed: ${host} is a local or private address (${address}). Only public addresses can be fetched (a developer can set OUTBOUND_ALLOW_PRIVATE=true).`,
  );
}

/** A DNS lookup that fails for a name resolving to any non-public address. */
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, "", 0);
    const bad = addresses.find((a) => isNonPublicAddress(a.address));
    if (bad) return callback(refusal(hostname, bad.address) as NodeJS.ErrnoException, "", 0);
    if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
    const first = addresses[0];
    if (!first) return callback(new Error(`no address for ${hostname}`) as NodeJS.ErrnoException, "", 0);
    callback(null, first.address, first.family);
  });
};

const holder = globalThis as typeof globalThis & { __outboundAgents?: { guarded: Agent; open: Agent } };
/**
 * undici is loaded with the first request that goes out (~15 MB resident, a second copy beside
 * Node's own fetch): a site with no feeds, calendars or fediverse does not need it.
 */
async function undici(allowPrivate: boolean): Promise<{ fetch: typeof import("undici").fetch; dispatcher: Agent }> {
  const { Agent, fetch } = await import("undici");
  holder.__outboundAgents ??= {
    guarded: new Agent({ connect: { lookup: guardedLookup }, keepAliveTimeout: 4_000 }),
    open: new Agent({ keepAliveTimeout: 4_000 }),
  };
  return { fetch, dispatcher: allowPrivate ? holder.__outboundAgents.open : holder.__outboundAgents.guarded };
}

const isHttp = (url: URL) => url.protocol === "http:" || url.protocol === "https:";

export interface OutboundFetchOptions {
  timeoutMs: number;
  maxBytes: number;
  /** A further rule for the first URL and every redirect target (e.g. only substack.com). */
  isAllowed?: (url: URL) => boolean;
  maxRedirects?: number;
  accept?: string;
  userAgent: string;
  /** A form POST instead of a GET (e.g. sending a Webmention); its redirects are not followed. */
  form?: URLSearchParams;
  /**
   * A request with this body (e.g. an ActivityPub delivery; a CalDAV REPORT): POST unless `method`
   * says otherwise. Its redirects are not followed either (a redirect would carry the body and any
   * credentials in `headers` to another address).
   */
  body?: { contentType: string; text: string; method?: "POST" | "REPORT" };
  /** Further request headers (e.g. an HTTP signature made for this exact request). */
  headers?: Record<string, string>;
}

export interface OutboundResponse {
  bytes: Uint8Array;
  /** The address the body came from, after redirects. */
  url: string;
  contentType: string | null;
  status: number;
  /** The final response's headers (e.g. Link). */
  headers: { get(name: string): string | null };
}

function checkUrl(url: URL, options: OutboundFetchOptions, allowPrivate: boolean) {
  if (!isHttp(url) || (options.isAllowed && !options.isAllowed(url))) throw new OutboundFetchError(`address not allowed: ${url.origin}`);
  // A literal IP is connected to without a lookup, so it is checked here.
  const literal = url.hostname.replace(/^\[|\]$/g, "");
  if (!allowPrivate && isIP(literal) && isNonPublicAddress(literal)) throw refusal(url.hostname, literal);
  if (!allowPrivate && /^localhost\.?$/i.test(literal)) throw refusal(url.hostname, "localhost");
}

async function readLimited(response: Response, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(response.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes)
    throw new OutboundFetchError(`response too large (${declared} bytes, at most ${maxBytes})`);
  const bytes = await readBodyUpTo({ body: response.body as ReadableStream<Uint8Array> | null }, maxBytes, { cancelOnOverflow: true });
  if (!bytes) throw new OutboundFetchError(`response larger than ${maxBytes} bytes`);
  return bytes;
}

function causeOf(error: unknown): OutboundFetchError | undefined {
  for (let e: unknown = error; e instanceof Error; e = e.cause) if (e instanceof OutboundFetchError) return e;
  return undefined;
}

/**
 * GETs `url` with one deadline for the whole exchange (connect, redirects, body) and a size cap, from
 * public addresses only unless OUTBOUND_ALLOW_PRIVATE is set. Every failure is an OutboundFetchError
 * whose message an administrator can act on.
 */
export async function outboundFetch(url: string, options: OutboundFetchOptions): Promise<OutboundResponse> {
  const allowPrivate = getEnv().OUTBOUND_ALLOW_PRIVATE;
  const signal = AbortSignal.timeout(options.timeoutMs);
  let current: URL;
  try {
    current = new URL(url);
  } catch {
    throw new OutboundFetchError("not a valid http(s) address");
  }
  try {
    for (let hop = 0; hop <= (options.maxRedirects ?? 3); hop++) {
      checkUrl(current, options, allowPrivate);
      const post = options.form
        ? { contentType: "application/x-www-form-urlencoded", text: options.form.toString(), method: "POST" as const }
        : (options.body ?? null);
      const { fetch, dispatcher } = await undici(allowPrivate);
      const response = await fetch(current, {
        signal,
        redirect: "manual",
        dispatcher,
        headers: {
          accept: options.accept ?? "*/*",
          "user-agent": options.userAgent,
          ...(post ? { "content-type": post.contentType } : {}),
          ...options.headers,
        },
        ...(post ? { method: post.method ?? "POST", body: post.text } : {}),
      });
      if (response.status >= 300 && response.status < 400 && !post) {
        const location = response.headers.get("location");
        await response.body?.cancel();
        if (!location) throw new OutboundFetchError(`redirect without a location (${response.status})`);
        current = new URL(location, current);
        continue;
      }
      if (!response.ok) {
        await response.body?.cancel();
        throw new OutboundFetchError(`HTTP ${response.status}`, response.status);
      }
      const bytes = await readLimited(response, options.maxBytes);
      return {
        bytes,
        url: current.toString(),
        contentType: response.headers.get("content-type"),
        status: response.status,
        headers: response.headers,
      };
    }
    throw new OutboundFetchError("too many redirects");
  } catch (error) {
    const known = causeOf(error);
    if (known) throw known;
    if (signal.aborted) throw new OutboundFetchError(`timed out after ${options.timeoutMs} ms`);
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
    throw new OutboundFetchError(`not reachable: ${cause}`);
  }
}
