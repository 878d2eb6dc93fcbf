import { z } from "zod";
import { getEnv } from "~/server/env.server";
import { ValidationError } from "~/server/errors.server";
import { logger } from "~/server/logger.server";
import { FeedCache } from "./feed-cache.server";
import type { FeedItem } from "./feed-item";
import { fetchDocument } from "./fetch-document.server";
import { parseFeedDocument } from "./parse-feed.server";

const FEED_MAX_BYTES = 2 * 1024 * 1024;

/** The JSON answer of the feed endpoints (SPEC §7): the item, cacheable for 5 minutes, or 502 `unavailable`. */
export function feedItemResponse(item: FeedItem | null, unavailable: string): Response {
  if (!item) return Response.json({ error: unavailable }, { status: 502 });
  return Response.json(item, { headers: { "Cache-Control": "public, max-age=300" } });
}

export interface FeedConfig {
  substackUrl?: string;
  tspBlogUrl?: string;
  tspKbUrl?: string;
  timeoutMs: number;
  ttlSeconds: number;
  maxBytes: number;
}

const isHttp = (url: URL) => url.protocol === "http:" || url.protocol === "https:";

export interface FeedService {
  /** The newest newsletter post; `substackUrl` defaults to SUBSTACK_URL. Null when it cannot be read. */
  fetchSubstack(substackUrl?: string): Promise<FeedItem | null>;
  fetchTspBlog(): Promise<FeedItem | null>;
  fetchTspKb(): Promise<FeedItem | null>;
  /** The substack URL rule, for endpoints: throws ValidationError with a message a person can act on. */
  parseSubstackUrl(input: unknown): string;
}

/** Substack newsletters publish their feed at /feed; any other path is read as given. */
function substackFeedUrl(url: URL): string {
  return url.pathname === "/" || url.pathname === "" ? new URL("/feed", url).toString() : url.toString();
}

export function createFeedService(config: FeedConfig): FeedService {
  const cacheOptions = {
    ttlMs: config.ttlSeconds * 1000,
    failureTtlMs: Math.min(config.ttlSeconds, 60) * 1000,
    onRefreshError: (key: string, err: unknown) => logger.warn({ err, feed: key }, "feed refresh failed"),
  };
  // The configured feeds have a cache of their own: addresses a visitor names (substackUrl) fill the
  // other one and can never push the configured feeds out.
  const configuredCache = new FeedCache<FeedItem>(cacheOptions);
  const visitorCache = new FeedCache<FeedItem>({ ...cacheOptions, maxEntries: 100 });
  const configuredSubstackFeed = config.substackUrl ? substackFeedUrl(new URL(config.substackUrl)) : undefined;
  const configuredSubstackHost = config.substackUrl ? new URL(config.substackUrl).host : undefined;
  const isSubstackHost = (url: URL) =>
    isHttp(url) && (url.host === configuredSubstackHost || url.hostname === "substack.com" || url.hostname.endsWith(".substack.com"));

  async function read(name: string, url: string, isAllowed: (url: URL) => boolean): Promise<FeedItem | null> {
    const started = Date.now();
    try {
      const options = { timeoutMs: config.timeoutMs, maxBytes: config.maxBytes, isAllowed };
      const first = await fetchDocument(url, options);
      let parsed = parseFeedDocument(first.body, first.url);
      if (parsed.kind === "alternate") {
        const remaining = config.timeoutMs - (Date.now() - started);
        const feedUrl = new URL(parsed.feedUrl);
        if (remaining <= 0 || feedUrl.host !== new URL(first.url).host) throw new Error("the page's feed link cannot be followed");
        const second = await fetchDocument(parsed.feedUrl, { ...options, timeoutMs: remaining });
        parsed = parseFeedDocument(second.body, second.url);
      }
      if (parsed.kind !== "item") throw new Error(parsed.kind === "none" ? parsed.reason : "no feed item");
      return parsed.item;
    } catch (err) {
      logger.warn(
        { feed: name, url, ms: Date.now() - started, reason: err instanceof Error ? err.message : String(err) },
        "feed unavailable",
      );
      return null;
    }
  }

  function cached(name: string, url: string | undefined, isAllowed: (url: URL) => boolean): Promise<FeedItem | null> {
    if (!url) return Promise.resolve(null);
    const configured = url === configuredSubstackFeed || url === config.tspBlogUrl || url === config.tspKbUrl;
    return (configured ? configuredCache : visitorCache).get(`${name} ${url}`, () => read(name, url, isAllowed));
  }

  const substackUrlSchema = z
    .url({ protocol: /^https?$/, error: "substackUrl must be an http(s) URL" })
    .refine(
      (value) => URL.canParse(value) && isSubstackHost(new URL(value)),
      "substackUrl must point to the configured newsletter or a substack.com address",
    );

  return {
    parseSubstackUrl(input) {
      const result = substackUrlSchema.safeParse(input);
      if (!result.success) throw new ValidationError(result.error.issues[0]?.message ?? "Invalid substackUrl");
      return result.data;
    },
    fetchSubstack(substackUrl) {
      const url = substackUrl ?? config.substackUrl;
      if (!url) return Promise.resolve(null);
      return cached("substack", substackFeedUrl(new URL(url)), isSubstackHost);
    },
    fetchTspBlog: () => cached("tsp-blog", config.tspBlogUrl, isHttp),
    fetchTspKb: () => cached("tsp-kb", config.tspKbUrl, isHttp),
  };
}

/** The three Featured Work feed addresses (the site settings; empty means none). */
export interface FeedUrls {
  substackUrl?: string;
  tspBlogUrl?: string;
  tspKbUrl?: string;
}

let current: { key: string; service: FeedService } | undefined;

/**
 * The process-wide feed service for these addresses (the site settings'; the environment's when
 * none are given). Its cache lives until the addresses change.
 */
export function getFeedService(urls?: FeedUrls): FeedService {
  const env = getEnv();
  const chosen = urls ?? { substackUrl: env.SUBSTACK_URL, tspBlogUrl: env.TSP_BLOG_URL, tspKbUrl: env.TSP_KB_URL };
  const config = {
    substackUrl: chosen.substackUrl || undefined,
    tspBlogUrl: chosen.tspBlogUrl || undefined,
    tspKbUrl: chosen.tspKbUrl || undefined,
  };
  const key = JSON.stringify([config.substackUrl, config.tspBlogUrl, config.tspKbUrl]);
  if (current?.key !== key) {
    current = {
      key,
      service: createFeedService({
        ...config,
        timeoutMs: env.FEED_TIMEOUT_MS,
        ttlSeconds: env.FEED_CACHE_TTL_SECONDS,
        maxBytes: FEED_MAX_BYTES,
      }),
    };
  }
  return current.service;
}

/**
 * Settles within `ms` no matter what: the feed's own deadline already bounds it, this guards the page
 * against anything else (e.g. a waiting shared load).
 */
export function withDeadline<T>(promise: Promise<T | null>, ms: number): Promise<T | null> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      () => {
        clearTimeout(timer);
        resolve(null);
      },
    );
  });
}

/** Loads every feed into the cache in the background (at start-up); failures are only logged. */
export function warmFeeds(): void {
  const feeds = getFeedService();
  void Promise.allSettled([feeds.fetchSubstack(), feeds.fetchTspBlog(), feeds.fetchTspKb()]);
}
