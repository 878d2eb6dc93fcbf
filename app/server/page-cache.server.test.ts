import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createNonce, NONCE_PLACEHOLDER, stampNonce } from "./nonce.server";
import {
  cacheableUrl,
  createCachedPage,
  encodePage,
  encodePieces,
  encodingsAccepted,
  expirePageAt,
  GUARDED_CACHE_CONTROL,
  isGuardedPath,
  isStorable,
  PUBLIC_CACHE_CONTROL,
  renderExpiryOf,
  matchesEtag,
  PageCache,
  type CachedPage,
  type RenderedPage,
} from "./page-cache.server";

const url = (path: string) => new URL(path, "http://example.test");

describe("cacheableUrl", () => {
  it("admits anonymous GET and HEAD of public pages and feeds", () => {
    for (const path of [
      "/",
      "/about",
      "/contact",
      "/7fs/Faith",
      "/7fs/Faith/a-post",
      "/rss.xml",
      "/7fs/Faith/rss.xml",
      "/sitemap.xml",
      "/sitemaps/pages.xml",
      "/sitemaps/posts-2.xml",
      "/robots.txt",
    ]) {
      expect(cacheableUrl("GET", url(path), undefined)?.pathname, path).toBe(path);
    }
    expect(cacheableUrl("HEAD", url("/about"), undefined)).not.toBeNull();
  });

  it("refuses writes, private areas, data requests and editors", () => {
    expect(cacheableUrl("POST", url("/contact"), undefined)).toBeNull();
    for (const path of [
      "/admin",
      "/admin/blog",
      "/auth",
      "/api/feeds/substack",
      "/7fs/Faith.data",
      "/7fs/Faith/new",
      "/7fs/Faith/a-post/edit",
      "/uploads/x.png",
    ]) {
      expect(cacheableUrl("GET", url(path), undefined), path).toBeNull();
    }
  });

  it("refuses any request that carries a cookie (a session, a toast)", () => {
    expect(cacheableUrl("GET", url("/"), "sid=abc")).toBeNull();
    expect(cacheableUrl("GET", url("/"), "toast=xyz")).toBeNull();
    expect(cacheableUrl("GET", url("/"), "")).not.toBeNull();
  });

  it("drops parameters named like Object's own properties (constructor, toString, __proto__)", () => {
    expect(cacheableUrl("GET", url("/?constructor=&toString=1&__proto__=x"), undefined)?.href).toBe("http://example.test/");
  });

  it("admits the slot page as a guarded page, with its own parameters kept and others dropped", () => {
    expect(isGuardedPath("/book")).toBe(true);
    expect(isGuardedPath("/book/manage/x")).toBe(false);
    expect(isGuardedPath("/")).toBe(false);
    expect(
      cacheableUrl("GET", url("/book?utm_source=x&type=intro&day=2030-01-02&tz=America/New_York&zones=all&page=2"), undefined)?.href,
    ).toBe("http://example.test/book?day=2030-01-02&type=intro&tz=America%2FNew_York&zones=all");
    // A chosen slot is one visitor's step: rendered for its request only.
    expect(cacheableUrl("GET", url("/book?day=2030-01-02&slot=2030-01-02T09:30:00.000Z"), undefined)).toBeNull();
    // Its parameters mean nothing elsewhere; a malformed one is rendered for its request only.
    expect(cacheableUrl("GET", url("/about?type=intro"), undefined)?.href).toBe("http://example.test/about");
    expect(cacheableUrl("GET", url("/book?day=tomorrow"), undefined)).toBeNull();
    expect(cacheableUrl("GET", url("/book?zones=some"), undefined)).toBeNull();
    expect(cacheableUrl("GET", url("/book"), "sid=abc")).toBeNull();
    expect(cacheableUrl("POST", url("/book"), undefined)).toBeNull();
    expect(cacheableUrl("GET", url("/book/manage/x?t=y"), undefined)).toBeNull();
  });

  it("keeps only known query parameters, so tracking parameters share one entry", () => {
    expect(cacheableUrl("GET", url("/7fs/Faith?utm_source=x&page=2"), undefined)?.href).toBe("http://example.test/7fs/Faith?page=2");
    expect(cacheableUrl("GET", url("/about?ref=mail"), undefined)?.href).toBe("http://example.test/about");
    expect(cacheableUrl("GET", url("/7fs/Faith?page=abc"), undefined)).toBeNull();
    expect(cacheableUrl("GET", url("/7fs/Faith?page=1&page=2"), undefined)).toBeNull();
  });
});

describe("isStorable", () => {
  const headers = (init: Record<string, string>) => new Headers(init);
  it("stores a plain 200 only", () => {
    expect(isStorable(200, headers({ "content-type": "text/html" }))).toBe(true);
    expect(isStorable(404, headers({}))).toBe(false);
    expect(isStorable(302, headers({ location: "/" }))).toBe(false);
    expect(isStorable(200, headers({ "set-cookie": "a=b" }))).toBe(false);
    expect(isStorable(200, headers({ "cache-control": "private, no-store" }))).toBe(false);
    expect(isStorable(200, headers({ vary: "Cookie" }))).toBe(false);
  });
});

describe("createCachedPage", () => {
  const html = Buffer.from(`<!doctype html><p>${"hello ".repeat(500)}</p>`);

  /** What a client accepting `accepted` receives, decoded, and the encoding it was sent in. */
  const served = (page: CachedPage, nonce: string, accepted: string[]) => {
    const { body, encoding } = encodePage(page, nonce, (...offered) => offered.find((e) => accepted.includes(e)) ?? false);
    const decoded = encoding === "gzip" ? gunzipSync(body) : encoding === "br" ? brotliDecompressSync(body) : body;
    return { encoding, text: decoded.toString() };
  };

  it("keeps the page's headers but not the transfer's nor those the cache sets itself, and precompresses", async () => {
    const page = await createCachedPage(
      200,
      new Headers({
        "content-type": "text/html",
        "content-length": "5",
        date: "x",
        "cache-control": "public, max-age=300",
        vary: "Accept-Encoding",
      }),
      html,
    );
    expect(page.headers).toEqual([["content-type", "text/html"]]);
    expect(page.etag).toMatch(/^"[\w-]{32}"$/);
    expect(page.segments).toHaveLength(1);
    expect(served(page, createNonce(), ["br", "gzip", "identity"])).toEqual({ encoding: "br", text: html.toString() });
    expect(served(page, createNonce(), ["gzip", "identity"])).toEqual({ encoding: "gzip", text: html.toString() });
    expect(served(page, createNonce(), ["identity"])).toEqual({ encoding: null, text: html.toString() });
  });

  it("puts each response's own nonce in every placeholder, gzipped from pieces made once", async () => {
    const body = Buffer.from(
      `<script nonce="${NONCE_PLACEHOLDER}"></script>${"x".repeat(2000)}<script nonce="${NONCE_PLACEHOLDER}">y</script>${"z".repeat(70_000)}<link nonce="${NONCE_PLACEHOLDER}">`,
    );
    const page = await createCachedPage(200, new Headers(), body);
    expect(page.segments).toHaveLength(4);
    expect(page.br).toBeNull();
    const [first, second] = [createNonce(), createNonce()];
    const expected = stampNonce(body.toString(), first);
    expect(expected).not.toContain(NONCE_PLACEHOLDER);
    // gunzip checks the CRC-32 and length in the trailer, so a wrong one would throw here.
    expect(served(page, first, ["br", "gzip", "identity"])).toEqual({ encoding: "gzip", text: expected });
    expect(served(page, first, ["identity"])).toEqual({ encoding: null, text: expected });
    expect(served(page, second, ["gzip"]).text).toBe(stampNonce(body.toString(), second));
  });

  it("hands the same bytes in pieces, with the stored buffers themselves and their total length", async () => {
    const body = Buffer.from(`<script nonce="${NONCE_PLACEHOLDER}"></script>${"x".repeat(3000)}<link nonce="${NONCE_PLACEHOLDER}">`);
    const page = await createCachedPage(200, new Headers(), body);
    const nonce = createNonce();
    for (const accepted of [["gzip"], ["identity"]]) {
      const accepts = (...offered: string[]) => offered.find((e) => accepted.includes(e)) ?? false;
      const { pieces, length, encoding } = encodePieces(page, nonce, accepts);
      const whole = encodePage(page, nonce, accepts);
      expect(encoding).toBe(whole.encoding);
      expect(Buffer.concat(pieces).equals(whole.body)).toBe(true);
      expect(length).toBe(whole.body.length);
    }
    const identity = encodePieces(page, nonce, () => "identity").pieces;
    expect(identity).toHaveLength(5);
    expect(identity[0]).toBe(page.segments[0]);
    const feed = await createCachedPage(200, new Headers(), Buffer.from("<rss></rss>"));
    expect(encodePieces(feed, nonce, () => "identity").pieces).toEqual([feed.segments[0]]);
    expect(encodePieces(feed, nonce, () => "identity").pieces[0]).toBe(feed.segments[0]);
  });

  it("does not compress a small body", async () => {
    const page = await createCachedPage(200, new Headers(), Buffer.from("small"));
    expect(served(page, createNonce(), ["br", "gzip", "identity"])).toEqual({ encoding: null, text: "small" });
  });

  it("gives different bodies different ETags", async () => {
    const a = await createCachedPage(200, new Headers(), Buffer.from("a"));
    const b = await createCachedPage(200, new Headers(), Buffer.from("b"));
    expect(a.etag).not.toBe(b.etag);
    expect(matchesEtag(a.etag, a.etag)).toBe(true);
    expect(matchesEtag(`"other", W/${a.etag}`, a.etag)).toBe(true);
    expect(matchesEtag(b.etag, a.etag)).toBe(false);
    expect(matchesEtag(undefined, a.etag)).toBe(false);
  });
});

describe("PageCache", () => {
  const rendered = async (text: string, storable = true): Promise<RenderedPage> => {
    const body = Buffer.from(text);
    return {
      status: 200,
      statusText: "OK",
      headers: new Headers(),
      body,
      page: storable ? await createCachedPage(200, new Headers(), body) : null,
    };
  };

  it("serves an entry only for the version it was rendered at, and empties on a new version", async () => {
    const cache = new PageCache({ maxBytes: 1_000_000, maxEntries: 100, maxAgeMs: 60_000 });
    expect(cache.get("/a", 1)).toBeUndefined();
    await cache.fill("/a", 1, () => rendered("one"));
    expect(cache.get("/a", 1)?.segments.join("")).toBe("one");
    expect(cache.get("/a", 2)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it("does not store a page whose version moved while it rendered", async () => {
    const cache = new PageCache({ maxBytes: 1_000_000, maxEntries: 100, maxAgeMs: 60_000 });
    cache.useVersion(1);
    await cache.fill("/a", 1, async () => {
      cache.useVersion(2);
      return rendered("old");
    });
    expect(cache.get("/a", 2)).toBeUndefined();
    expect(cache.get("/a", 1)).toBeUndefined();
  });

  it("renders once for concurrent requests of one key", async () => {
    const cache = new PageCache({ maxBytes: 1_000_000, maxEntries: 100, maxAgeMs: 60_000 });
    cache.useVersion(1);
    let renders = 0;
    const render = async () => {
      renders++;
      await new Promise((resolve) => setTimeout(resolve, 10));
      return rendered("page");
    };
    const results = await Promise.all([cache.fill("/a", 1, render), cache.fill("/a", 1, render), cache.fill("/a", 1, render)]);
    expect(renders).toBe(1);
    expect(results.map((r) => r.own)).toEqual([true, false, false]);
  });

  it("renders a page again once it is older than the maximum age", async () => {
    const cache = new PageCache({ maxBytes: 1_000_000, maxEntries: 100, maxAgeMs: 20 });
    cache.useVersion(1);
    await cache.fill("/a", 1, () => rendered("one"));
    expect(cache.get("/a", 1)).toBeDefined();
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(cache.get("/a", 1)).toBeUndefined();
  });

  describe("a page that named its expiry", () => {
    afterEach(() => {
      vi.useRealTimers();
    });
    const at = Date.parse("2030-01-01T10:00:00.000Z");
    const expiring = async (expiresAt: number): Promise<RenderedPage> => {
      const body = Buffer.from("slots");
      return {
        status: 200,
        statusText: "OK",
        headers: new Headers(),
        body,
        page: await createCachedPage(200, new Headers(), body, "book", { expiresAt, guarded: true }),
      };
    };

    it("is served until the millisecond before it, never after, and never before it was rendered (a clock stepped back)", async () => {
      vi.useFakeTimers({ toFake: ["Date"] });
      vi.setSystemTime(at);
      const cache = new PageCache({ maxBytes: 1_000_000, maxEntries: 100, maxAgeMs: 60_000 });
      cache.useVersion(1);
      await cache.fill("/book", 1, () => expiring(at + 5_000));
      expect(cache.get("/book", 1)?.cacheControl).toBe(GUARDED_CACHE_CONTROL);
      vi.setSystemTime(at + 4_999);
      expect(cache.get("/book", 1)).toBeDefined();
      vi.setSystemTime(at + 5_000);
      expect(cache.get("/book", 1)).toBeUndefined();

      await cache.fill("/book", 1, () => expiring(at + 10_000));
      vi.setSystemTime(at - 1);
      expect(cache.get("/book", 1)).toBeUndefined();
    });

    it("is not stored when it has expired by the time its render ends, and other pages stay public", async () => {
      vi.useFakeTimers({ toFake: ["Date"] });
      vi.setSystemTime(at);
      const cache = new PageCache({ maxBytes: 1_000_000, maxEntries: 100, maxAgeMs: 60_000 });
      cache.useVersion(1);
      const answer = await cache.fill("/book", 1, () => expiring(at));
      expect(answer.page).not.toBeNull();
      expect(cache.get("/book", 1)).toBeUndefined();
      await cache.fill("/a", 1, () => rendered("one"));
      expect(cache.get("/a", 1)?.cacheControl).toBe(PUBLIC_CACHE_CONTROL);
    });
  });

  it("takes the earliest expiry a render's loaders name, per request", () => {
    const request = new Request("http://example.test/");
    expect(renderExpiryOf(request)).toBeUndefined();
    expirePageAt(request, null);
    expirePageAt(request, 2_000);
    expirePageAt(request, 1_000);
    expirePageAt(request, 3_000);
    expect(renderExpiryOf(request)).toBe(1_000);
    expect(renderExpiryOf(new Request("http://example.test/"))).toBeUndefined();
  });

  it("never stores what may not be shared", async () => {
    const cache = new PageCache({ maxBytes: 1_000_000, maxEntries: 100, maxAgeMs: 60_000 });
    cache.useVersion(1);
    await cache.fill("/a", 1, () => rendered("private", false));
    expect(cache.get("/a", 1)).toBeUndefined();
  });

  it("is bounded by bytes", async () => {
    const cache = new PageCache({ maxBytes: 3000, maxEntries: 100, maxAgeMs: 60_000 });
    cache.useVersion(1);
    for (const key of ["/a", "/b", "/c", "/d"]) await cache.fill(key, 1, () => rendered("x".repeat(500)));
    expect(cache.bytes).toBeLessThanOrEqual(3000);
    expect(cache.get("/a", 1)).toBeUndefined();
    expect(cache.get("/d", 1)).toBeDefined();
  });
});

describe("encodingsAccepted", () => {
  it("chooses as Express's acceptsEncodings does (negotiator 0.6, recorded from it)", () => {
    const cases: [string | undefined, string[], string | false][] = [
      [undefined, ["br", "gzip", "identity"], "identity"],
      ["gzip, deflate, br, zstd", ["br", "gzip", "identity"], "gzip"],
      ["br, gzip", ["br", "gzip", "identity"], "br"],
      ["br, gzip", ["gzip", "identity"], "gzip"],
      ["gzip;q=0.5", ["br", "gzip", "identity"], "gzip"],
      ["gzip;q=0, br;q=0", ["br", "gzip", "identity"], "identity"],
      ["identity;q=0", ["br", "gzip", "identity"], false],
      ["*", ["br", "gzip", "identity"], "br"],
      ["*;q=0, gzip", ["br", "gzip", "identity"], "gzip"],
      ["br;q=0.8, gzip;q=0.9", ["br", "gzip", "identity"], "gzip"],
      ["BR", ["br", "gzip", "identity"], "br"],
      ["BR", ["gzip", "identity"], "identity"],
    ];
    for (const [header, offered, expected] of cases) {
      expect([header, offered, encodingsAccepted(header)(...offered)]).toEqual([header, offered, expected]);
    }
  });
});

describe("createNonce", () => {
  it("never repeats a nonce across refills of its random pool", () => {
    const nonces = Array.from({ length: 1000 }, () => createNonce());
    expect(new Set(nonces).size).toBe(1000);
    for (const nonce of nonces) expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
  });
});
