import { CATEGORY_DESCRIPTIONS, postPath, type Category } from "~/lib/categories";
import { SITE_NAME } from "~/lib/seo";
import { escapeXml } from "~/lib/xml";
import { postSummary } from "./summary";

export interface FeedPost {
  title: string;
  slug: string;
  excerpt: string | null;
  content: string;
  category: Category;
  createdAt: Date;
}

/** RSS 2.0 of published posts; every link absolute from PUBLIC_URL. */
export function buildRss(publicUrl: string, category: Category | null, posts: FeedPost[]): string {
  const selfPath = category ? `/7fs/${category}/rss.xml` : "/rss.xml";
  const link = category ? `${publicUrl}/7fs/${category}` : publicUrl;
  const title = category ? `${category} — 7 Fs Framework — ${SITE_NAME}` : `7 Fs Framework — ${SITE_NAME}`;
  const description = category ? CATEGORY_DESCRIPTIONS[category] : "Faith, Finance, Fitness, Fun, Friends, Family and Figurehead: the 7 Fs Framework blog.";
  const items = posts
    .map((p) => {
      const url = `${publicUrl}${postPath(p.category, p.slug)}`;
      return [
        "    <item>",
        `      <title>${escapeXml(p.title)}</title>`,
        `      <link>${escapeXml(url)}</link>`,
        `      <guid isPermaLink="true">${escapeXml(url)}</guid>`,
        `      <category>${escapeXml(p.category)}</category>`,
        `      <pubDate>${p.createdAt.toUTCString()}</pubDate>`,
        `      <description>${escapeXml(postSummary(p, 300))}</description>`,
        "    </item>",
      ].join("\n");
    })
    .join("\n");
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">',
    "  <channel>",
    `    <title>${escapeXml(title)}</title>`,
    `    <link>${escapeXml(link)}</link>`,
    `    <description>${escapeXml(description)}</description>`,
    "    <language>en-us</language>",
    `    <atom:link href="${escapeXml(publicUrl + selfPath)}" rel="self" type="application/rss+xml"/>`,
    ...(posts[0] ? [`    <lastBuildDate>${posts[0].createdAt.toUTCString()}</lastBuildDate>`] : []),
    items,
    "  </channel>",
    "</rss>",
    "",
  ]
    .filter((l) => l !== "")
    .join("\n");
}

export function rssResponse(xml: string): Response {
  return new Response(xml, {
    headers: { "Content-Type": "application/rss+xml; charset=utf-8", "Cache-Control": "public, max-age=300" },
  });
}
