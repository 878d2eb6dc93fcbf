import { describe, expect, it } from "vitest";
import { escapeXml } from "~/lib/xml";
import { buildPagesSitemap, buildPostsSitemap, buildSitemapIndex, postsFileCount, postsFileIds, sitemapPaths } from "./sitemap";

describe("sitemaps", () => {
  it("indexes the pages' sitemap and the fewest posts' files, a power of two, that hold the posts per file on average", () => {
    expect(sitemapPaths(0, 1000)).toEqual(["/sitemaps/pages.xml"]);
    expect(sitemapPaths(1000, 1000)).toEqual(["/sitemaps/pages.xml", "/sitemaps/posts-1.xml"]);
    expect(sitemapPaths(1001, 1000)).toEqual(["/sitemaps/pages.xml", "/sitemaps/posts-1.xml", "/sitemaps/posts-2.xml"]);
    expect([1, 2, 3, 4, 5, 8, 9].map((n) => postsFileCount(n, 2))).toEqual([1, 1, 2, 2, 4, 4, 8]);
    expect(postsFileCount(90_000, 1000)).toBe(128);
    expect(postsFileCount(100_000, 50_000)).toBe(2);
    const index = buildSitemapIndex("https://site.example", 2, new Date("2024-03-01T00:00:00Z"), 1000);
    expect(index).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<sitemapindex /);
    expect(index).toContain(
      "<sitemap><loc>https://site.example/sitemaps/posts-1.xml</loc><lastmod>2024-03-01T00:00:00.000Z</lastmod></sitemap>",
    );
    expect(index).not.toContain("posts-2.xml");
  });

  it("gives each posts' file an equal share of the ids, edge to edge, so every id is in exactly one file", () => {
    const ZERO = "00000000-0000-0000-0000-000000000000";
    expect(postsFileIds(1, 1)).toEqual({ from: ZERO, below: null });
    expect(postsFileIds(1, 2)).toEqual({ from: ZERO, below: "80000000-0000-0000-0000-000000000000" });
    expect(postsFileIds(2, 2)).toEqual({ from: "80000000-0000-0000-0000-000000000000", below: null });
    expect(postsFileIds(2, 128)).toEqual({ from: "02000000-0000-0000-0000-000000000000", below: "04000000-0000-0000-0000-000000000000" });
    expect(postsFileIds(1 << 20, 1 << 20)).toEqual({ from: "fffff000-0000-0000-0000-000000000000", below: null });
    // Ids at and around the files' edges, compared as PostgreSQL compares uuids (byte by byte: as lowercase hex).
    const ids = [
      ZERO,
      "ffffffff-ffff-ffff-ffff-ffffffffffff",
      "7fffffff-ffff-ffff-ffff-ffffffffffff",
      "80000000-0000-0000-0000-000000000000",
    ];
    for (let i = 0; i < 200; i++) ids.push(crypto.randomUUID());
    for (const files of [1, 2, 4, 128]) {
      const ranges = Array.from({ length: files }, (_, i) => postsFileIds(i + 1, files));
      expect(ranges[0]?.from).toBe(ZERO);
      ranges.forEach((range, i) => expect(range.below).toBe(ranges[i + 1]?.from ?? null));
      for (const id of ids) {
        const holders = ranges.filter(({ from, below }) => id >= from && (below === null || id < below));
        expect(holders, `${id} in ${files} files`).toHaveLength(1);
      }
    }
  });

  it("lists pages and categories with the newest dates, and posts with absolute, escaped URLs", () => {
    const pages = buildPagesSitemap("https://site.example", {
      newest: new Date("2024-03-01T00:00:00Z"),
      newestByCategory: { Faith: new Date("2024-01-01T00:00:00Z") },
    });
    expect(pages).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset /);
    expect(pages).toContain("<url><loc>https://site.example/</loc><lastmod>2024-03-01T00:00:00.000Z</lastmod></url>");
    expect(pages).toContain("<url><loc>https://site.example/about</loc></url>");
    expect(pages).toContain("<url><loc>https://site.example/7fs/Faith</loc><lastmod>2024-01-01T00:00:00.000Z</lastmod></url>");
    expect(pages).toContain("<url><loc>https://site.example/7fs/Family</loc></url>");
    const posts = buildPostsSitemap("https://site.example", [
      { slug: "a&b", category: "Faith", updatedAt: new Date("2024-01-01T00:00:00Z") },
    ]);
    expect(posts).toContain("<url><loc>https://site.example/7fs/Faith/a&amp;b</loc><lastmod>2024-01-01T00:00:00.000Z</lastmod></url>");
  });
});

describe("sitemap URLs", () => {
  it("writes every path as the URL parser would, whatever the site's address and the path", () => {
    const sites = ["https://site.example", "https://site.example:8443", "http://a&b.example", "https://site.example/blog"];
    const slugs = [
      "plain-slug-1",
      "a&b",
      "caf\u00e9",
      "with space",
      "..",
      ".hidden",
      "a..b",
      "x/../y",
      "q?x=1#f",
      "Ünïcode",
      "under_score~",
    ];
    for (const site of sites) {
      const xml = buildPostsSitemap(
        site,
        slugs.map((slug) => ({ slug, category: "Faith", updatedAt: new Date("2024-01-01T00:00:00Z") })),
      );
      for (const slug of slugs) {
        const expected = escapeXml(new URL(`/7fs/Faith/${slug}`, `${site}/`).toString());
        expect(xml).toContain(`<url><loc>${expected}</loc>`);
      }
    }
  });
});
