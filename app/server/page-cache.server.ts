import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import { LruCache } from "~/lib/lru-cache";
import { NONCE_PLACEHOLDER } from "./nonce.server";

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/**
 * The rendered-page cache (issue 14): anonymous GET/HEAD of public pages and feeds, keyed by the
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

/** The only query parameters a public page reads; any other is dropped from the key and the render. */
const KNOWN_PARAMS: Record<string, RegExp> = { page: /^\d{1,6}$/ };

/** What a CDN and browsers may do with a cached public page: hold it briefly, serve stale while refreshing. */
export const PUBLIC_CACHE_CONTROL = "public, max-age=0, s-maxage=60, stale-while-revalidate=300";
export const PRIVATE_CACHE_CONTROL = "private, no-store";

/**
 * The URL a cacheable request is rendered from (only known query parameters, sorted), or null when
 * the request must not use the cache. Any cookie makes a request per-visitor (a session, a toast):
 * checked without touching the database.
 */
export function cacheableUrl(method: string, url: URL, cookieHeader: string | undefined): URL | null {
  if (method !== "GET" && method !== "HEAD") return null;
  if (cookieHeader && cookieHeader.trim() !== "") return null;
  // React Router's data requests (*.data) of client navigations are rendered per request.
  if (url.pathname.endsWith(".data") || !CACHEABLE_PATHS.some((pattern) => pattern.test(url.pathname))) return null;
  const normalized = new URL(url.pathname, url.origin);
  const names = [...new Set(url.searchParams.keys())].filter((name) => name in KNOWN_PARAMS).sort();
  for (const name of names) {
    const values = url.searchParams.getAll(name);
    const value = values[0] ?? "";
    // A repeated or malformed known parameter is rare and odd: rendered fresh, never stored.
    if (values.length > 1 || !KNOWN_PARAMS[name]?.test(value)) return null;
    normalized.searchParams.set(name, value);
  }
  return normalized;
}

export interface CachedPage {
  status: number;
  headers: [string, string][];
  body: Buffer;
  etag: string;
  /** The body holds the nonce placeholder: stamped per response, so it is compressed per response. */
  hasNonce: boolean;
  gzip: Buffer | null;
  br: Buffer | null;
  /** When it was rendered (ms): pages also show what no write announces (external feeds). */
  renderedAt: number;
}

/** Response headers that describe one transfer, not the page. */
const TRANSFER_HEADERS = new Set(["date", "content-length", "connection", "transfer-encoding", "keep-alive", "set-cookie", "etag"]);

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

/** Builds an entry: strong ETag over the stored bytes, br and gzip made once (off the main thread). */
export async function createCachedPage(status: number, headers: Headers, body: Buffer): Promise<CachedPage> {
  const kept: [string, string][] = [];
  headers.forEach((value, name) => {
    if (!TRANSFER_HEADERS.has(name.toLowerCase())) kept.push([name, value]);
  });
  const hasNonce = body.includes(NONCE_PLACEHOLDER);
  const compressible = !hasNonce && body.length >= MIN_COMPRESS_BYTES;
  const [gz, br] = compressible
    ? await Promise.all([
        gzipAsync(body, { level: 9 }),
        brotliAsync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
      ])
    : [null, null];
  const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 32)}"`;
  return { status, headers: kept, body, etag, hasNonce, gzip: gz, br, renderedAt: Date.now() };
}

function sizeOf(page: CachedPage): number {
  const headerBytes = page.headers.reduce((sum, [name, value]) => sum + name.length + value.length, 0);
  return page.body.length + (page.gzip?.length ?? 0) + (page.br?.length ?? 0) + headerBytes + 256;
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
    if (page && Date.now() - page.renderedAt > this.maxAgeMs) {
      this.lru.delete(key);
      return undefined;
    }
    return page;
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
        if (rendered.page && this.version === version) this.lru.set(key, rendered.page);
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
