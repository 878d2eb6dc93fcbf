import { describe, expect, it } from "vitest";
import { escapeXml } from "~/lib/xml";
import { buildPagesSitemap, buildPostsSitemap, buildSitemapIndex, sitemapPaths } from "./sitemap";

describe("sitemaps", () => {
  it("indexes the pages' sitemap and one posts' file per 50,000 posts", () => {
    expect(sitemapPaths(0)).toEqual(["/sitemaps/pages.xml"]);
    expect(sitemapPaths(50_000)).toEqual(["/sitemaps/pages.xml", "/sitemaps/posts-1.xml"]);
    expect(sitemapPaths(100_001)).toEqual([
      "/sitemaps/pages.xml",
      "/sitemaps/posts-1.xml",
      "/sitemaps/posts-2.xml",
      "/sitemaps/posts-3.xml",
    ]);
    const index = buildSitemapIndex("https://site.example", 2, new Date("2024-03-01T00:00:00Z"));
    expect(index).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<sitemapindex /);
    expect(index).toContain(
      "<sitemap><loc>https://site.example/sitemaps/posts-1.xml</loc><lastmod>2024-03-01T00:00:00.000Z</lastmod></sitemap>",
    );
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
