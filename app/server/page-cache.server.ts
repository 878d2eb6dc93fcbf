import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { brotliCompress, constants, crc32, deflateRaw } from "node:zlib";
import Negotiator from "negotiator";
import { crc32CombineWith, crc32Shift } from "~/lib/crc32-combine";
import { LruCache } from "~/lib/lru-cache";
import { NONCE_PLACEHOLDER } from "./nonce.server";
import { requestMemo } from "./request-scope.server";

const deflateRawAsync = promisify(deflateRaw);
const brotliAsync = promisify(brotliCompress);

/**
 * The rendered-page cache (docs/decisions/0022-page-cache.md): anonymous GET/HEAD of public pages and feeds, keyed by the
 * normalized URL and the content version. Entries of an older version are never served, and the
 * whole cache is emptied when the version moves, so invalidation relies only on the version every
 * instance reads from the database.
 */

/** Public pages and feeds; everything else (admin, auth, /api, *.data, editors) is never cached. */
const CACHEABLE_PATHS: RegExp[] = [
  /^\/$/,
  /^\/(about|recent-roles|projects|testimonials|contact)$/,
  /^\/(rss\.xml|robots\.txt|sitemap\.xml|sitemaps\/(pages|posts-\d{1,6})\.xml)$/,
  /^\/7fs\/[^/]+(\/rss\.xml)?$/,
  /^\/7fs\/[^/]+\/(?!new$)[^/]+$/,
];

/**
 * Pages that show what changes between content versions, cached only beside a value the page handler
 * reads from the database on every request (its `guard`) and only until the instant the render
 * named (`expirePageAt`): the slot page (docs/decisions/0083-slot-page-cache.md). Never answered
 * by the hit path before Express, which reads nothing from the database.
 */
const GUARDED_PATHS: RegExp[] = [/^\/book$/];

/**
 * The only query parameters a public page reads; any other is dropped from the key and the render. A
 * Map, not an object literal: a parameter named `constructor` or `toString` must not find Object's own.
 */
const KNOWN_PARAMS = new Map<string, RegExp>([["page", /^\d{1,6}$/]]);

/**
 * The slot page's parameters (slot-picker.server.ts reads them; a value it does not accept shows the
 * default). A chosen slot (`slot`) is one visitor's step to the form: rendered for its request, never
 * stored, so following every slot link (a crawler) does not fill the cache.
 */
const GUARDED_PARAMS = new Map<string, RegExp>([
  ["type", /^[a-z0-9-]{1,80}$/],
  ["day", /^\d{4}-\d{2}-\d{2}$/],
  ["tz", /^[A-Za-z0-9_+\-/]{1,64}$/],
  ["zones", /^all$/],
]);
const GUARDED_UNCACHED_PARAMS = ["slot"];

/** What a CDN and browsers may do with a cached public page: hold it briefly, serve stale while refreshing. */
export const PUBLIC_CACHE_CONTROL = "public, max-age=0, s-maxage=60, stale-while-revalidate=300";
/** A guarded page: anyone may store it, but must ask again (a 304 with the ETag) before each use. */
export const GUARDED_CACHE_CONTROL = "public, no-cache";
export const PRIVATE_CACHE_CONTROL = "private, no-store";

/** Whether a path's page is cached only beside a value read per request (GUARDED_PATHS). */
export function isGuardedPath(pathname: string): boolean {
  return GUARDED_PATHS.some((pattern) => pattern.test(pathname));
}

/**
 * The URL a cacheable request is rendered from (only known query parameters, sorted), or null when
 * the request must not use the cache. Any cookie makes a request per-visitor (a session, a toast):
 * checked without touching the database.
 */
export function cacheableUrl(method: string, url: URL, cookieHeader: string | undefined): URL | null {
  if (method !== "GET" && method !== "HEAD") return null;
  if (cookieHeader && cookieHeader.trim() !== "") return null;
  // React Router's data requests (*.data) of client navigations are rendered per request.
  if (url.pathname.endsWith(".data")) return null;
  const guarded = isGuardedPath(url.pathname);
  if (!guarded && !CACHEABLE_PATHS.some((pattern) => pattern.test(url.pathname))) return null;
  if (guarded && GUARDED_UNCACHED_PARAMS.some((name) => url.searchParams.has(name))) return null;
  const known = guarded ? GUARDED_PARAMS : KNOWN_PARAMS;
  const normalized = new URL(url.pathname, url.origin);
  const names = [...new Set(url.searchParams.keys())].filter((name) => known.has(name)).sort();
  for (const name of names) {
    const values = url.searchParams.getAll(name);
    const value = values[0] ?? "";
    // A repeated or malformed known parameter is rare and odd: rendered fresh, never stored.
    if (values.length > 1 || !known.get(name)?.test(value)) return null;
    normalized.searchParams.set(name, value);
  }
  return normalized;
}

/** Each shared render's expiry, kept per request (the page handler opens a scope for each). */
const renderExpiry = requestMemo<{ at: number }>();

/**
 * Called by a loader whose page shows what changes with time alone (slots leave the minimum notice,
 * booking pauses when a calendar feed goes unread): a shared render of the page is not served from
 * `at` on (null: nothing changes without a write). The earliest of several calls counts.
 */
export function expirePageAt(request: Request, at: number | null): void {
  if (at === null) return;
  const expiry = renderExpiry(request, () => ({ at: Infinity }));
  expiry.at = Math.min(expiry.at, at);
}

/** The instant a render's page stops being good (expirePageAt), or undefined when no loader named one. */
export function renderExpiryOf(request: Request): number | undefined {
  const at = renderExpiry(request, () => ({ at: Infinity })).at;
  return at === Infinity ? undefined : at;
}

export interface CachedPage {
  status: number;
  headers: [string, string][];
  /** The body as rendered, cut at each nonce placeholder: a response puts its own nonce between the pieces. */
  segments: Buffer[];
  etag: string;
  /**
   * gzip made once at store time, per segment (raw deflate, each segment compressed on its own and
   * flushed to a byte boundary), so a response only adds a stored block for its nonce and the trailer.
   */
  deflated: Buffer[] | null;
  /** Each segment's CRC-32 (the gzip trailer is combined from these and the nonce's, per response). */
  crcs: number[];
  /** Each segment's `crc32Shift` (its length's part of a CRC join), made at store time. */
  shifts: number[];
  /** br made once: only for a body without a nonce (brotli's state does not restart between pieces). */
  br: Buffer | null;
  /** The metrics label of the route that rendered it, so a hit is counted without matching routes. */
  route: string;
  /** When it was rendered (ms): pages also show what no write announces (external feeds). */
  renderedAt: number;
  /** When it stops being good however young it is (expirePageAt); it is not served before renderedAt either. */
  expiresAt?: number;
  /** What it tells browsers and CDNs (PUBLIC_CACHE_CONTROL, or GUARDED_CACHE_CONTROL for a guarded page). */
  cacheControl: string;
}

/**
 * Response headers not stored with a page: those that describe one transfer, and those the cache
 * sets itself on every answer (its own ETag, Cache-Control and Vary — a route's own Cache-Control,
 * e.g. the feeds', would otherwise go out as a second, contradicting header).
 */
const NOT_STORED_HEADERS = new Set([
  "date",
  "content-length",
  "connection",
  "transfer-encoding",
  "keep-alive",
  "set-cookie",
  "etag",
  "cache-control",
  "vary",
]);

/**
 * Whether a rendered response may be stored: a 200 that sets no cookie and does not mark itself
 * private. Everything else (redirects, 404s, drafts with `private, no-store`) is rendered per request.
 */
export function isStorable(status: number, headers: Headers): boolean {
  if (status !== 200) return false;
  if (headers.has("set-cookie")) return false;
  const cacheControl = headers.get("cache-control") ?? "";
  if (/\b(private|no-store|no-cache)\b/i.test(cacheControl)) return false;
  if (headers.has("vary") && headers.get("vary") !== "Accept-Encoding") return false;
  return !/text\/event-stream/i.test(headers.get("content-type") ?? "");
}

const MIN_COMPRESS_BYTES = 1024;

/** The body cut at every nonce placeholder (one segment when it has none). */
function splitAtPlaceholder(body: Buffer): Buffer[] {
  const segments: Buffer[] = [];
  let start = 0;
  for (let at = body.indexOf(NONCE_PLACEHOLDER); at !== -1; at = body.indexOf(NONCE_PLACEHOLDER, start)) {
    segments.push(body.subarray(start, at));
    start = at + NONCE_PLACEHOLDER.length;
  }
  segments.push(body.subarray(start));
  return segments;
}

/**
 * Builds an entry: strong ETag over the stored bytes (placeholder included: the same page whatever
 * the nonce), gzip per segment and br made once (off the main thread).
 */
export async function createCachedPage(
  status: number,
  headers: Headers,
  body: Buffer,
  route = "unmatched",
  { expiresAt, guarded = false }: { expiresAt?: number; guarded?: boolean } = {},
): Promise<CachedPage> {
  const kept: [string, string][] = [];
  headers.forEach((value, name) => {
    if (!NOT_STORED_HEADERS.has(name.toLowerCase())) kept.push([name, value]);
  });
  const segments = splitAtPlaceholder(body);
  const last = segments.length - 1;
  const compressible = body.length >= MIN_COMPRESS_BYTES;
  const [deflated, br] = compressible
    ? await Promise.all([
        // Every segment but the last ends non-final and byte-aligned (sync flush), so segments
        // compressed apart join into one valid deflate stream; the last one carries the final block.
        Promise.all(
          segments.map((segment, i) =>
            deflateRawAsync(segment, { level: 9, finishFlush: i === last ? constants.Z_FINISH : constants.Z_SYNC_FLUSH }),
          ),
        ),
        last === 0
          ? brotliAsync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } })
          : null,
      ])
    : [null, null];
  const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 32)}"`;
  const crcs = segments.map((segment) => crc32(segment));
  const shifts = segments.map((segment) => crc32Shift(segment.length));
  const cacheControl = guarded ? GUARDED_CACHE_CONTROL : PUBLIC_CACHE_CONTROL;
  return {
    status,
    headers: kept,
    segments,
    etag,
    deflated,
    crcs,
    shifts,
    br,
    route,
    renderedAt: Date.now(),
    cacheControl,
    ...(expiresAt === undefined ? {} : { expiresAt }),
  };
}

/** The length of a nonce from createNonce (16 bytes in base64). */
const NONCE_LENGTH = 24;
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
const NONCE_SHIFT = crc32Shift(NONCE_LENGTH);

/** A non-final stored deflate block holding `bytes` (at most 65,535), for a byte-aligned stream. */
function storedBlock(bytes: Buffer): Buffer {
  const block = Buffer.alloc(5 + bytes.length);
  block[0] = 0;
  block.writeUInt16LE(bytes.length, 1);
  block.writeUInt16LE(~bytes.length & 0xffff, 3);
  bytes.copy(block, 5);
  return block;
}

export interface EncodedBody {
  body: Buffer;
  encoding: "br" | "gzip" | null;
}

/** The encodings a stored page can be sent in, best first, by what it holds. */
const BR_GZIP = ["br", "gzip", "identity"];
const BR = ["br", "identity"];
const GZIP = ["gzip", "identity"];
const IDENTITY = ["identity"];

/** One response's body for a stored page as the pieces it is made of, in order, and their total length. */
export interface EncodedPieces {
  pieces: Buffer[];
  length: number;
  encoding: "br" | "gzip" | null;
}

/**
 * The bytes of one response for a stored page, with `nonce` in place of every placeholder, in the
 * best of the encodings the client accepts (`accepts` as Express's acceptsEncodings answers), as
 * one buffer. Nothing is compressed here: pieces stored at cache time plus the nonce (encodePieces).
 */
export function encodePage(page: CachedPage, nonce: string, accepts: (...encodings: string[]) => string | false): EncodedBody {
  const { pieces, length, encoding } = encodePieces(page, nonce, accepts);
  const [only] = pieces;
  // A body without a nonce (feeds, sitemaps) goes out as stored, without a copy.
  return { body: pieces.length === 1 && only ? only : Buffer.concat(pieces, length), encoding };
}

/**
 * encodePage's body left in its pieces (the stored segments or their deflated forms, this response's
 * nonce between them, gzip's header and trailer around them), for a caller that writes them to the
 * socket as they are: a page holds a few nonces (3 in the demo's pages), and a few more buffers in
 * one writev cost less than copying the whole page into a new buffer per response.
 */
export function encodePieces(page: CachedPage, nonce: string, accepts: (...encodings: string[]) => string | false): EncodedPieces {
  const encoding = accepts(...(page.br ? (page.deflated ? BR_GZIP : BR) : page.deflated ? GZIP : IDENTITY));
  if (encoding === "br" && page.br) return { pieces: [page.br], length: page.br.length, encoding: "br" };
  const [only] = page.segments;
  // A body without a nonce (feeds, sitemaps) goes out as stored.
  if (encoding !== "gzip" && page.segments.length === 1 && only) return { pieces: [only], length: only.length, encoding: null };
  const nonceBytes = Buffer.from(nonce, "latin1");
  if (page.segments.length > 1 && nonceBytes.length !== NONCE_LENGTH) throw new Error("unexpected nonce length");
  if (encoding === "gzip" && page.deflated) {
    const pieces: Buffer[] = [GZIP_HEADER];
    let length = GZIP_HEADER.length + 8;
    const nonceBlock = storedBlock(nonceBytes);
    const nonceCrc = crc32(nonceBytes);
    const nonceShift = nonceBytes.length === NONCE_LENGTH ? NONCE_SHIFT : crc32Shift(nonceBytes.length);
    let crc = 0;
    let size = 0;
    page.deflated.forEach((deflated, i) => {
      if (i > 0) {
        pieces.push(nonceBlock);
        length += nonceBlock.length;
        crc = crc32CombineWith(nonceShift, crc, nonceCrc);
        size += nonceBytes.length;
      }
      pieces.push(deflated);
      length += deflated.length;
      crc = i === 0 ? (page.crcs[0] ?? 0) : crc32CombineWith(page.shifts[i] ?? 0, crc, page.crcs[i] ?? 0);
      size += page.segments[i]?.length ?? 0;
    });
    const trailer = Buffer.alloc(8);
    trailer.writeUInt32LE(crc >>> 0, 0);
    trailer.writeUInt32LE(size >>> 0, 4);
    pieces.push(trailer);
    return { pieces, length, encoding: "gzip" };
  }
  const pieces: Buffer[] = [];
  let length = 0;
  page.segments.forEach((segment, i) => {
    if (i > 0) {
      pieces.push(nonceBytes);
      length += nonceBytes.length;
    }
    pieces.push(segment);
    length += segment.length;
  });
  return { pieces, length, encoding: null };
}

/**
 * Per Accept-Encoding value, the function that answers for it, with the encoding chosen per offer
 * (a few distinct values in practice; bounded all the same).
 */
const chosenEncodings = new Map<string | undefined, (...offered: string[]) => string | false>();
const MAX_ACCEPT_ENCODING_VALUES = 64;

/**
 * Express's `req.acceptsEncodings` for the hit path, which runs before Express: the same negotiator
 * decides, once per distinct header value and offer (parsing the header on every hit showed in profiles).
 */
export function encodingsAccepted(header: string | undefined): (...offered: string[]) => string | false {
  let accepts = chosenEncodings.get(header);
  if (!accepts) {
    if (chosenEncodings.size >= MAX_ACCEPT_ENCODING_VALUES) chosenEncodings.clear();
    const answers = new Map<string, string | false>();
    let negotiator: Negotiator | undefined;
    accepts = (...offered) => {
      const key = offered.join(",");
      let answer = answers.get(key);
      if (answer === undefined) {
        negotiator ??= new Negotiator({ headers: { "accept-encoding": header } });
        answer = negotiator.encodings(offered)[0] ?? false;
        answers.set(key, answer);
      }
      return answer;
    };
    chosenEncodings.set(header, accepts);
  }
  return accepts;
}

function sizeOf(page: CachedPage): number {
  const headerBytes = page.headers.reduce((sum, [name, value]) => sum + name.length + value.length, 0);
  const bytes = (buffers: Buffer[] | null) => (buffers ?? []).reduce((sum, buffer) => sum + buffer.length, 0);
  return bytes(page.segments) + bytes(page.deflated) + (page.br?.length ?? 0) + headerBytes + 256;
}

/** Whether If-None-Match names this entity (weak comparison, as RFC 9110 §13.1.2 asks for GET). */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === "*") return true;
  return ifNoneMatch.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}

/** One render's response, buffered; `page` is set only when it may be stored and shared. */
export interface RenderedPage {
  status: number;
  statusText: string;
  headers: Headers;
  body: Buffer;
  page: CachedPage | null;
}

export interface PageCacheOptions {
  maxBytes: number;
  maxEntries: number;
  /** An entry older than this is rendered again even if no write happened (the home page's feeds). */
  maxAgeMs: number;
}

/** A byte-bounded LRU of rendered pages for one content version, with one render per key at a time. */
export class PageCache {
  private readonly lru: LruCache<CachedPage>;
  private readonly inFlight = new Map<string, Promise<RenderedPage>>();
  private version: number | undefined;
  private readonly maxAgeMs: number;

  constructor(options: PageCacheOptions) {
    this.maxAgeMs = options.maxAgeMs;
    this.lru = new LruCache<CachedPage>({ maxEntries: options.maxEntries, maxSize: options.maxBytes, sizeOf });
  }

  /** The entry for `key` rendered at `version`; entries of any other version are gone. */
  get(key: string, version: number): CachedPage | undefined {
    this.useVersion(version);
    const page = this.lru.get(key);
    if (page && !this.isGood(page, Date.now())) {
      this.lru.delete(key);
      return undefined;
    }
    return page;
  }

  /** Young enough, and for a page that named its expiry, inside [renderedAt, expiresAt) (the clock may step back). */
  private isGood(page: CachedPage, now: number): boolean {
    if (now - page.renderedAt > this.maxAgeMs) return false;
    return page.expiresAt === undefined || (now >= page.renderedAt && now < page.expiresAt);
  }

  /**
   * Renders `key` once for all concurrent requests of the same version. `render` returns the
   * response as rendered, with `page` set when it may be stored. `own` tells the caller whether the
   * render was its own: a waiter given a response that is not storable must render for itself.
   */
  async fill(key: string, version: number, render: () => Promise<RenderedPage>): Promise<RenderedPage & { own: boolean }> {
    const flightKey = `${version}\n${key}`;
    const pending = this.inFlight.get(flightKey);
    if (pending) return { ...(await pending), own: false };
    const promise = render()
      .then((rendered) => {
        // Stored only if the version did not move while rendering: the page might show older content.
        // One already expired is sent to its own request and waiters, never kept.
        if (rendered.page && this.version === version && this.isGood(rendered.page, Date.now())) this.lru.set(key, rendered.page);
        return rendered;
      })
      .finally(() => this.inFlight.delete(flightKey));
    this.inFlight.set(flightKey, promise);
    return { ...(await promise), own: true };
  }

  /** Drops every entry when the content version moves (to any other value). */
  useVersion(version: number): void {
    if (this.version === version) return;
    this.version = version;
    this.lru.clear();
  }

  get size(): number {
    return this.lru.size;
  }

  get bytes(): number {
    return this.lru.totalSize;
  }
}
