import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rssWithTitle, startFeedFixtureServer, type FeedFixtureServer } from "../../../tests/helpers/feed-fixture-server";
import { FeedCache } from "./feed-cache.server";
import { createFeedService, type FeedConfig } from "./feeds.server";
import { parseFeedDocument, plainText } from "./parse-feed.server";

// The fixture servers listen on 127.0.0.1, which the outbound guard refuses unless this is set.
process.env.OUTBOUND_ALLOW_PRIVATE = "true";

let fixtures: FeedFixtureServer;
beforeAll(async () => {
  fixtures = await startFeedFixtureServer();
});
afterAll(() => fixtures.close());

function service(overrides: Partial<FeedConfig> = {}) {
  return createFeedService({ timeoutMs: 800, ttlSeconds: 60, maxBytes: 512 * 1024, ...overrides });
}

describe("feed readers against a real HTTP server", () => {
  it("reads the newest RSS item: title, plain-text description, enclosure image, link", async () => {
    const item = await service({ tspBlogUrl: `${fixtures.url}/rss` }).fetchTspBlog();
    expect(item).toEqual({
      title: "Shipping Calm: A Newsletter & More",
      description: "How we cut cycle time in half & kept the team sane.",
      image: "https://cdn.example.test/shipping.jpg",
      link: "https://example.test/p/shipping-calm",
    });
  });

  it("reads the first Atom entry and resolves relative links against the feed URL", async () => {
    const item = await service({ tspKbUrl: `${fixtures.url}/atom` }).fetchTspKb();
    expect(item).toEqual({
      title: "Five Risk Registers That Work",
      description: "A practical guide to risk registers teams actually update.",
      image: `${fixtures.url}/img/risk.png`,
      link: `${fixtures.url}/kb/risk-registers`,
    });
  });

  it("falls back to the OpenGraph tags of an HTML page", async () => {
    const item = await service({ tspBlogUrl: `${fixtures.url}/og` }).fetchTspBlog();
    expect(item).toEqual({
      title: "Team Playbooks & Templates",
      description: "Templates for planning, retros and status reports.",
      image: `${fixtures.url}/images/playbooks.png`,
      link: "https://blog.example.test/playbooks",
    });
  });

  it("follows a same-site feed link of an HTML page without OpenGraph tags", async () => {
    const item = await service({ tspBlogUrl: `${fixtures.url}/html-with-feed` }).fetchTspBlog();
    expect(item?.title).toBe("Five Risk Registers That Work");
  });

  it("follows redirects on the same site", async () => {
    const item = await service({ tspBlogUrl: `${fixtures.url}/redirect-home` }).fetchTspBlog();
    expect(item?.link).toBe("https://example.test/p/shipping-calm");
  });

  it.each([
    ["garbage", "/garbage"],
    ["an HTML page without OpenGraph tags or feed link", "/plain-html"],
    ["HTTP 500", "/error"],
    ["an item whose link is not http(s)", "/bad-item"],
    ["a streamed body over the size limit", "/oversize"],
    ["a declared size over the limit", "/oversize-declared"],
    ["a missing page (404)", "/nope"],
  ])("omits the card (null) for %s", async (_label, path) => {
    expect(await service({ tspBlogUrl: `${fixtures.url}${path}` }).fetchTspBlog()).toBeNull();
  });

  it("gives up on a slow server at the timeout, whether headers or body are slow", async () => {
    for (const path of ["/slow", "/slow-body"]) {
      const started = Date.now();
      expect(await service({ tspBlogUrl: `${fixtures.url}${path}`, timeoutMs: 300 }).fetchTspBlog()).toBeNull();
      const elapsed = Date.now() - started;
      expect(elapsed).toBeGreaterThanOrEqual(280);
      expect(elapsed).toBeLessThan(1500);
    }
  });

  it("returns null when a source is not configured", async () => {
    expect(await service().fetchTspKb()).toBeNull();
    expect(await service().fetchSubstack()).toBeNull();
  });

  it("caches a good item for the TTL: one request upstream for many reads", async () => {
    const feeds = service({ tspBlogUrl: `${fixtures.url}/atom?cache-test` });
    const before = fixtures.hits.get("/atom") ?? 0;
    const results = await Promise.all([feeds.fetchTspBlog(), feeds.fetchTspBlog(), feeds.fetchTspBlog()]);
    await feeds.fetchTspBlog();
    expect(results.every((r) => r?.title === "Five Risk Registers That Work")).toBe(true);
    expect((fixtures.hits.get("/atom") ?? 0) - before).toBe(1);
  });
});

describe("fetch-substack", () => {
  it("reads /feed of the configured newsletter when given its home page", async () => {
    const feeds = service({ substackUrl: `${fixtures.url}/` });
    const item = await feeds.fetchSubstack();
    expect(item?.title).toBe("Shipping Calm: A Newsletter & More");
    expect(fixtures.hits.get("/feed")).toBeGreaterThan(0);
  });

  it("accepts the configured host and substack.com hosts, refuses anything else", () => {
    const feeds = service({ substackUrl: `${fixtures.url}/` });
    expect(feeds.parseSubstackUrl(`${fixtures.url}/feed`)).toBe(`${fixtures.url}/feed`);
    expect(feeds.parseSubstackUrl("https://someone.substack.com")).toBe("https://someone.substack.com");
    expect(() => feeds.parseSubstackUrl("https://substack.com.evil.example/feed")).toThrow(/configured newsletter or a substack.com/);
    expect(() => feeds.parseSubstackUrl("http://169.254.169.254/latest")).toThrow(/configured newsletter/);
    expect(() => feeds.parseSubstackUrl("file:///etc/passwd")).toThrow(/http\(s\) URL/);
    expect(() => feeds.parseSubstackUrl("not a url")).toThrow(/http\(s\) URL/);
    expect(() => feeds.parseSubstackUrl(42)).toThrow(/http\(s\) URL/);
  });

  it("does not follow a redirect off the allowed hosts", async () => {
    const feeds = service({ substackUrl: `${fixtures.url}/` });
    expect(await feeds.fetchSubstack(`${fixtures.url}/redirect-away`)).toBeNull();
    // The same redirect is fine for a configured blog source, which may live anywhere.
    expect((await service({ tspBlogUrl: `${fixtures.url}/redirect-away` }).fetchTspBlog())?.title).toBe(
      "Shipping Calm: A Newsletter & More",
    );
  });
});

describe("visitor-chosen newsletter addresses", () => {
  it("never evict the configured feed from the cache", async () => {
    const feeds = service({ substackUrl: `${fixtures.url}/` });
    await feeds.fetchSubstack();
    const before = fixtures.hits.get("/feed") ?? 0;
    for (let i = 0; i < 120; i++) await feeds.fetchSubstack(`${fixtures.url}/missing-${i}`);
    expect((await feeds.fetchSubstack())?.title).toBe("Shipping Calm: A Newsletter & More");
    expect(fixtures.hits.get("/feed")).toBe(before);
  });
});

describe("FeedCache", () => {
  it("serves stale data at once while one background refresh replaces it", async () => {
    let now = 0;
    const cache = new FeedCache<string>({ ttlMs: 1000, failureTtlMs: 100, now: () => now });
    let calls = 0;
    let release: () => void = () => undefined;
    const load = () => {
      calls += 1;
      if (calls === 1) return Promise.resolve("v1");
      return new Promise<string>((resolve) => {
        release = () => resolve(`v${calls}`);
      });
    };
    expect(await cache.get("k", load)).toBe("v1");
    now = 1500;
    expect(await cache.get("k", load)).toBe("v1");
    expect(await cache.get("k", load)).toBe("v1");
    expect(calls).toBe(2);
    release();
    await new Promise((r) => setTimeout(r, 0));
    expect(await cache.get("k", load)).toBe("v2");
  });

  it("keeps at most maxEntries addresses, dropping the oldest written", async () => {
    const cache = new FeedCache<string>({ ttlMs: 1000, failureTtlMs: 100, maxEntries: 2 });
    let loads = 0;
    const load = (value: string) => async () => {
      loads += 1;
      return value;
    };
    await cache.get("a", load("A"));
    await cache.get("b", load("B"));
    await cache.get("c", load("C"));
    expect(loads).toBe(3);
    await cache.get("c", load("C"));
    await cache.get("b", load("B"));
    expect(loads).toBe(3);
    // "a" went when "c" came: it is loaded again.
    expect(await cache.get("a", load("A2"))).toBe("A2");
    expect(loads).toBe(4);
  });

  it("keeps the last good value when a refresh fails, and caches failures briefly", async () => {
    let now = 0;
    const cache = new FeedCache<string>({ ttlMs: 1000, failureTtlMs: 100, now: () => now });
    expect(await cache.get("k", () => Promise.resolve("good"))).toBe("good");
    now = 2000;
    expect(await cache.get("k", () => Promise.resolve(null))).toBe("good");
    await new Promise((r) => setTimeout(r, 0));
    expect(await cache.get("k", () => Promise.resolve("unused"))).toBe("good");

    let failures = 0;
    const failing = () => {
      failures += 1;
      return Promise.resolve(null);
    };
    expect(await cache.get("down", failing)).toBeNull();
    expect(await cache.get("down", failing)).toBeNull();
    expect(failures).toBe(1);
    now += 150;
    expect(await cache.get("down", failing)).toBeNull();
    expect(failures).toBe(2);
  });

  it("answers a failed source's stale entry at once while it is retried in the background", async () => {
    let now = 0;
    const cache = new FeedCache<string>({ ttlMs: 1000, failureTtlMs: 100, now: () => now });
    expect(await cache.get("down", () => Promise.resolve(null))).toBeNull();
    now = 200;
    let release: (value: string) => void = () => undefined;
    const hanging = new Promise<string>((resolve) => (release = resolve));
    expect(await cache.get("down", () => hanging)).toBeNull();
    release("back");
    await new Promise((r) => setTimeout(r, 0));
    expect(await cache.get("down", () => Promise.resolve("unused"))).toBe("back");
  });

  it("picks up a new post upstream after the TTL (stale-while-revalidate over HTTP)", async () => {
    fixtures.setMutable(rssWithTitle("First version"));
    const feeds = service({ tspKbUrl: `${fixtures.url}/mutable`, ttlSeconds: 1 });
    expect((await feeds.fetchTspKb())?.title).toBe("First version");
    fixtures.setMutable(rssWithTitle("Second version"));
    expect((await feeds.fetchTspKb())?.title).toBe("First version");
    await new Promise((r) => setTimeout(r, 1100));
    // Stale: answered from cache immediately, refreshed in the background.
    expect((await feeds.fetchTspKb())?.title).toBe("First version");
    await new Promise((r) => setTimeout(r, 200));
    expect((await feeds.fetchTspKb())?.title).toBe("Second version");
  });
});

describe("parseFeedDocument", () => {
  it("turns HTML descriptions into short plain text", () => {
    expect(plainText("<p>a &amp; b</p><script>x()</script>")).toBe("a & b");
    expect(plainText("word ".repeat(200)).length).toBeLessThanOrEqual(281);
  });

  it("reports documents it cannot read", () => {
    expect(parseFeedDocument("{}", "https://x.test/").kind).toBe("none");
    expect(parseFeedDocument("<rss><channel></channel></rss>", "https://x.test/")).toEqual({
      kind: "none",
      reason: "RSS feed has no items",
    });
  });
});
