import { describe, expect, it } from "vitest";
import { buildSitemap } from "./sitemap";

describe("buildSitemap", () => {
  it("lists pages, categories and posts with absolute, escaped URLs and the newest dates", () => {
    const xml = buildSitemap("https://site.example", [
      { slug: "a&b", category: "Faith", updatedAt: new Date("2024-01-01T00:00:00Z") },
      { slug: "later", category: "Fun", updatedAt: new Date("2024-03-01T00:00:00Z") },
    ]);
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset /);
    expect(xml).toContain("<url><loc>https://site.example/</loc><lastmod>2024-03-01T00:00:00.000Z</lastmod></url>");
    expect(xml).toContain("<url><loc>https://site.example/about</loc></url>");
    expect(xml).toContain("<url><loc>https://site.example/7fs/Faith</loc><lastmod>2024-01-01T00:00:00.000Z</lastmod></url>");
    expect(xml).toContain("<url><loc>https://site.example/7fs/Family</loc></url>");
    expect(xml).toContain("<loc>https://site.example/7fs/Faith/a&amp;b</loc>");
  });
});
