import { describe, expect, it } from "vitest";
import { buildRss } from "./rss.server";

describe("RSS", () => {
  it("builds RSS 2.0 with absolute links", () => {
    const xml = buildRss("https://site.example", "Faith", [
      { title: "A <b>&</b> post", slug: "a-b-post", excerpt: null, content: "Body </description><script>", category: "Faith", createdAt: new Date("2026-01-02T03:04:05Z") },
    ], "Jo & Co <Site>");
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<rss version="2.0"/);
    expect(xml).toContain("<title>A &lt;b&gt;&amp;&lt;/b&gt; post</title>");
    expect(xml).toContain("<link>https://site.example/7fs/Faith/a-b-post</link>");
    expect(xml).toContain("<description>Body &lt;/description&gt;&lt;script&gt;</description>");
    expect(xml).toContain("<pubDate>Fri, 02 Jan 2026 03:04:05 GMT</pubDate>");
    expect(xml).toContain('href="https://site.example/7fs/Faith/rss.xml" rel="self"');
    // The channel is titled with the site name from the settings, escaped.
    expect(xml).toContain("<title>Faith — 7 Fs Framework — Jo &amp; Co &lt;Site&gt;</title>");
  });
});
