import { resetEnvForTests } from "~/server/env.server";
import { afterAll, beforeAll, expect, it } from "vitest";
import { getFeaturedWebProject, listProjects } from "~/features/projects/projects.server";
import { getFeaturedArticle, getNewestPublishedPost, listPublishedPostsForSitemap } from "~/features/posts/read/home-posts.server";
import { seedDemoPageContent } from "~/features/pages/page-content.server";
import { seedDemoPositions } from "~/features/pages/positions.server";
import { seedDemoTestimonials } from "~/features/pages/testimonials.server";
import { describeEachDatabase } from "../helpers/databases";
import { makePost, makeProject } from "../helpers/factories";
import {
  GATED_TITLE,
  pointFeedEnvAtFixtures,
  pointFeedsAtFixtures,
  startFeedFixtureServer,
  type FeedFixtureServer,
} from "../helpers/feed-fixture-server";
import { BROWSER_UA, startTestServer, type TestServer } from "../helpers/test-server";

// The fixture servers listen on 127.0.0.1, which the outbound guard refuses unless this is set.
process.env.OUTBOUND_ALLOW_PRIVATE = "true";

const TIMEOUT_MS = 1500;

let fixtures: FeedFixtureServer;
beforeAll(async () => {
  fixtures = await startFeedFixtureServer();
  // The blog hangs (a gate never opened) and, uncached, is fetched and abandoned on every request of
  // both database runs. Streaming itself: home-streaming.test.ts.
  pointFeedEnvAtFixtures(fixtures, TIMEOUT_MS);
  process.env.PUBLIC_URL = "https://portfolio.example.test";
  resetEnvForTests();
});
afterAll(() => fixtures.close());

const day = 86_400_000;

describeEachDatabase("public site", (ctx) => {
  let server: TestServer;
  beforeAll(async () => {
    const now = Date.now();
    await makePost(ctx.db, {
      title: "Older Featured Post",
      slug: "older-featured",
      category: "Finance",
      featured: true,
      createdAt: new Date(now - 5 * day),
    });
    await makePost(ctx.db, { title: "Newest Plain Post", slug: "newest-plain", category: "Friends", createdAt: new Date(now - day) });
    await makePost(ctx.db, {
      title: "Draft Post",
      slug: "draft-post",
      category: "Faith",
      published: false,
      featured: true,
      createdAt: new Date(now),
    });
    await makeProject(ctx.db, { title: "Second Web", displayOrder: 2, createdAt: new Date(now) });
    await makeProject(ctx.db, {
      title: "Featured Web",
      displayOrder: 3,
      featured: true,
      createdAt: new Date(now - 9 * day),
      imageUrl: "/images/projects/launch-kit-800.webp",
    });
    await makeProject(ctx.db, { title: "Other Thing", type: "other", displayOrder: 1, featured: true, createdAt: new Date(now) });
    // The demo page content (testimonials, recent roles, About and home lists), as a first start with SEED_DEMO_CONTENT seeds it.
    await seedDemoTestimonials(ctx.db, true);
    await seedDemoPositions(ctx.db, true);
    await seedDemoPageContent(ctx.db, true);
    // A hanging feed address of this run's own: the process keeps what it learnt about a feed (a
    // failed one is answered at once afterwards), so each database run must meet the hang afresh.
    await pointFeedsAtFixtures(ctx.db, fixtures, `/gated?gate=hang-${ctx.kind}`);
    server = await startTestServer();
    // Warm the server (first render loads modules).
    await (await server.fetch("/about")).text();
  });
  afterAll(() => server.close());

  it("picks the featured article (featured first, published only), the teaser target and the featured web project", async () => {
    expect((await getFeaturedArticle(ctx.db))?.slug).toBe("older-featured");
    expect(await getNewestPublishedPost(ctx.db)).toEqual({ category: "Friends", slug: "newest-plain" });
    expect((await getFeaturedWebProject(ctx.db))?.title).toBe("Featured Web");
    expect((await listProjects(ctx.db)).map((p) => p.title)).toEqual(["Other Thing", "Second Web", "Featured Web"]);
    expect((await listPublishedPostsForSitemap(ctx.db)).map((p) => p.slug).sort()).toEqual(["newest-plain", "older-featured"]);
  });

  it("omits a hanging feed after the timeout: the page ends without it, the other feed cards in", async () => {
    const hanging = fixtures.gate(`hang-${ctx.kind}`);
    const started = Date.now();
    const response = await server.fetch("/", { headers: { "user-agent": BROWSER_UA } });
    expect(response.status).toBe(200);
    const html = await response.text();
    // The blog feed was asked for and never answered (its gate stays shut): the page could only end
    // because the server gave up on it, and not before its deadline (a loaded machine only adds to this).
    expect(hanging.waiting + hanging.abandoned).toBeGreaterThanOrEqual(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(TIMEOUT_MS - 100);
    expect(html).toContain("Featured Work");
    expect(html).toContain("Older Featured Post");
    expect(html).toContain('href="/7fs/Finance/older-featured"');
    expect(html).toContain('href="/7fs/Friends/newest-plain"');
    expect(html).toContain("Featured Web");
    expect(html).toContain("Shipping Calm: A Newsletter &amp; More");
    expect(html).toContain("Five Risk Registers That Work");
    expect(html).not.toContain(GATED_TITLE);
    expect(html).not.toContain("Draft Post");
  });

  it("gives crawlers the whole page, feeds included, without waiting for a hanging one", async () => {
    const response = await server.fetch("/", {
      headers: { "user-agent": "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" },
    });
    // The hanging feed's gate never opens: the page ends only because the server does not wait for it.
    const html = await response.text();
    expect(html).toContain("Five Risk Registers That Work");
    expect(html).not.toContain(GATED_TITLE);
    expect(html).toContain('<link rel="canonical" href="https://portfolio.example.test/"/>');
  });

  it("serves the feeds as JSON endpoints and refuses other hosts for substackUrl", async () => {
    const kb = await server.fetch("/api/feeds/tsp-kb");
    expect(kb.status).toBe(200);
    expect(await kb.json()).toMatchObject({ title: "Five Risk Registers That Work", link: `${fixtures.url}/kb/risk-registers` });

    const substack = await server.fetch("/api/feeds/substack", {
      method: "POST",
      headers: { origin: server.url, "content-type": "application/json" },
      body: JSON.stringify({ substackUrl: `${fixtures.url}/` }),
    });
    expect(substack.status).toBe(200);
    expect((await substack.json()).title).toBe("Shipping Calm: A Newsletter & More");

    const refused = await server.fetch("/api/feeds/substack", {
      method: "POST",
      headers: { origin: server.url, "content-type": "application/json" },
      body: JSON.stringify({ substackUrl: "http://169.254.169.254/latest/meta-data" }),
    });
    expect(refused.status).toBe(400);
    expect((await refused.json()).error).toMatch(/substack\.com/);

    const badJson = await server.fetch("/api/feeds/substack", { method: "POST", headers: { origin: server.url }, body: "{" });
    expect(badJson.status).toBe(400);

    const slow = await server.fetch("/api/feeds/tsp-blog");
    expect(slow.status).toBe(502);
    expect((await slow.json()).error).toMatch(/unavailable/);
  });

  it("answers bad requests to the public endpoints and pages with a 4xx and a message a person can act on", async () => {
    const post = (path: string, body: BodyInit, method = "POST", type = "application/json") =>
      server.fetch(path, { method, headers: { origin: server.url, "content-type": type }, body });
    const huge = await post("/api/feeds/substack", `{"substackUrl":"${"a".repeat(5 * 1024 * 1024)}"}`);
    expect(huge.status).toBe(413);
    expect((await huge.json()).error).toMatch(/too large/);
    for (const body of ["[1,2]", "null", '"x"']) {
      const notObject = await post("/api/feeds/substack", body);
      expect(notObject.status, body).toBe(400);
      expect((await notObject.json()).error).toMatch(/JSON object/);
    }
    const utf16 = await post(
      "/api/feeds/substack",
      new Uint8Array([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00]),
      "POST",
      "application/json; charset=utf-16",
    );
    expect(utf16.status).toBe(400);
    for (const path of ["/api/feeds/substack", "/api/feeds/tsp-blog", "/api/feeds/tsp-kb"]) {
      for (const method of ["PUT", "PATCH", "DELETE"]) {
        const wrong = await post(path, "{}", method);
        expect(wrong.status, `${method} ${path}`).toBe(405);
        expect(wrong.headers.get("allow")).toBe("GET, HEAD, POST");
        expect((await wrong.json()).error).toMatch(/use GET or POST/i);
      }
    }
    for (const path of ["/robots.txt", "/sitemap.xml"]) {
      const wrong = await post(path, "x=1", "POST", "application/x-www-form-urlencoded");
      expect(wrong.status, path).toBe(405);
      expect(await wrong.text()).toMatch(/only answers GET/);
      // A body that is not a form is refused before any route, by the app-wide guard.
      expect((await post(path, "x")).status, path).toBe(415);
    }
    for (const path of ["/", "/about", "/testimonials", "/no-such-page"]) {
      const wrong = await post(path, "a=1", "POST", "application/x-www-form-urlencoded");
      expect(wrong.status, path).toBe(405);
      const html = await wrong.text();
      expect(html).toContain("This page does not accept that kind of request.");
      expect(html).not.toMatch(/at [\w.]+ \(.*:\d+:\d+\)/);
    }
  });

  it("serves robots.txt and a sitemap of public pages and published posts with absolute URLs", async () => {
    const robots = await (await server.fetch("/robots.txt")).text();
    expect(robots).toContain("Sitemap: https://portfolio.example.test/sitemap.xml");
    expect(robots).toContain("Disallow: /admin");
    const sitemap = await server.fetch("/sitemap.xml");
    expect(sitemap.headers.get("content-type")).toContain("application/xml");
    // An index of sitemaps: the pages, then the posts in files of at most 50,000.
    const index = await sitemap.text();
    expect(index).toContain("<sitemapindex");
    const files = [...index.matchAll(/<loc>https:\/\/portfolio\.example\.test(\/sitemaps\/[^<]+)<\/loc>/g)].map((m) => m[1] ?? "");
    expect(files).toEqual(["/sitemaps/pages.xml", "/sitemaps/posts-1.xml"]);
    const parts = await Promise.all(files.map(async (file) => (await server.fetch(file)).text()));
    expect((await server.fetch("/sitemaps/posts-2.xml")).status).toBe(404);
    const xml = parts.join("\n");
    for (const path of [
      "/",
      "/about",
      "/recent-roles",
      "/projects",
      "/testimonials",
      "/contact",
      "/7fs/Faith",
      "/7fs/Finance/older-featured",
      "/7fs/Friends/newest-plain",
    ]) {
      expect(xml).toContain(`<loc>https://portfolio.example.test${path}</loc>`);
    }
    expect(xml).not.toContain("draft-post");
    // lastmod: each post, the home page and the categories that have published posts (a draft does not count).
    expect(xml).toMatch(
      /<loc>https:\/\/portfolio\.example\.test\/7fs\/Finance\/older-featured<\/loc><lastmod>\d{4}-\d\d-\d\dT[^<]+<\/lastmod>/,
    );
    expect(xml).toMatch(/<loc>https:\/\/portfolio\.example\.test\/7fs\/Friends<\/loc><lastmod>\d{4}-/);
    expect(xml).toMatch(/<loc>https:\/\/portfolio\.example\.test\/<\/loc><lastmod>\d{4}-/);
    expect(xml).toContain("<url><loc>https://portfolio.example.test/7fs/Faith</loc></url>");
  });

  it("server-renders every public page with its spec texts and SEO tags", async () => {
    const pages: Array<[string, string[]]> = [
      ["/about", ["Education", "Certifications", "Skills", "Tools", "/resume.pdf"]],
      [
        "/recent-roles",
        [
          "Technical Product Manager",
          "02/2022 – 07/2025",
          "Remote, USA",
          "System Project Consultant",
          "Digital consulting agency",
          "Training and knowledge-base business",
        ],
      ],
      [
        "/projects",
        ["Web Development Projects", "Second Web", "Featured Web", "Other Projects", "Other Thing", 'width="800" height="450"'],
      ],
      ["/testimonials", ["Testimonials", "What colleagues and clients say about working with me"]],
      ["/hero-mockups", ["Hero Section Options", "Option 5: Video Intro", "Which option do you prefer?"]],
    ];
    for (const [path, texts] of pages) {
      const html = await (await server.fetch(path)).text();
      for (const text of texts) expect(html, `${path} should contain ${text}`).toContain(text);
      expect(html).toContain(`<link rel="canonical" href="https://portfolio.example.test${path}"/>`);
      expect(html).toContain('property="og:title"');
      expect(html).toContain('name="twitter:card"');
    }
    const testimonials = await (await server.fetch("/testimonials")).text();
    expect(testimonials.match(/<figure/g)?.length).toBe(9);
  });
});
