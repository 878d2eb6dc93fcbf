import { describe, expect, it } from "vitest";
import { absoluteContentHtml, buildRss } from "./rss.server";

const base = {
  id: "0b0e5f8e-1f7e-4a4b-9c55-5a1b9b0a7c11",
  contentHtml: null,
  category: "Faith" as const,
  publishedAt: new Date("2026-01-02T03:04:05Z"),
};

describe("RSS", () => {
  it("builds RSS 2.0 with absolute links", () => {
    const xml = buildRss(
      "https://site.example",
      { category: "Faith", description: "The owner's <Faith> page" },
      [{ ...base, title: "A <b>&</b> post", slug: "a-b-post", excerpt: null, content: "Body </description><script>" }],
      "Jo & Co <Site>",
    );
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<rss version="2.0"/);
    expect(xml).toContain("<title>A &lt;b&gt;&amp;&lt;/b&gt; post</title>");
    expect(xml).toContain("<link>https://site.example/7fs/Faith/a-b-post</link>");
    expect(xml).toContain("<description>Body &lt;/description&gt;&lt;script&gt;</description>");
    expect(xml).toContain("<pubDate>Fri, 02 Jan 2026 03:04:05 GMT</pubDate>");
    expect(xml).toContain('href="https://site.example/7fs/Faith/rss.xml" rel="self"');
    expect(xml).not.toContain("<content:encoded>");
    // The channel is titled with the site name from the settings, escaped.
    expect(xml).toContain("<title>Faith — 7 Fs Framework — Jo &amp; Co &lt;Site&gt;</title>");
    expect(xml).toContain("<description>The owner&apos;s &lt;Faith&gt; page</description>");
  });

  it("carries the rendered HTML, escaped, in content:encoded with site paths made absolute", () => {
    const html =
      '<h2 id="why">Why</h2><p><a href="#why">up</a> <a href="/7fs/Fun">fun</a> <a href="//evil.example/x">x</a></p><p><img src="/uploads/a.jpg" srcset="/uploads/a-320w.webp 320w, /uploads/a.jpg 900w"></p>';
    const xml = buildRss(
      "https://site.example",
      null,
      [{ ...base, title: "T", slug: "t", excerpt: "E", content: "Why up fun", contentHtml: html }],
      "Site",
    );
    expect(xml).toContain('xmlns:content="http://purl.org/rss/1.0/modules/content/"');
    const encoded = /<content:encoded>(.*)<\/content:encoded>/.exec(xml)?.[1] ?? "";
    expect(encoded).toContain("&lt;h2 id=&quot;why&quot;&gt;");
    expect(encoded).not.toContain("<");
    expect(absoluteContentHtml(html, "https://site.example", "https://site.example/7fs/Faith/t")).toBe(
      '<h2 id="why">Why</h2><p><a href="https://site.example/7fs/Faith/t#why">up</a> <a href="https://site.example/7fs/Fun">fun</a> <a href="//evil.example/x">x</a></p><p><img src="https://site.example/uploads/a.jpg" srcset="https://site.example/uploads/a-320w.webp 320w, https://site.example/uploads/a.jpg 900w"></p>',
    );
  });
});
