import { postPath, type Category } from "~/lib/categories";
import { escapeXml } from "~/lib/xml";
import { postSummary } from "../content/summary";

export interface FeedPost {
  id: string;
  title: string;
  slug: string;
  excerpt: string | null;
  /** The post's plain text (for the summary). */
  content: string;
  /** The stored rendering; null for a row not rendered yet (the item then has no content:encoded). */
  contentHtml: string | null;
  category: Category;
  publishedAt: Date;
  /** The post's first address when it has moved since (its guid stays that URL); null or absent: never moved. */
  firstPath?: string | null;
}

/**
 * Rendered post HTML for a feed reader, which resolves nothing against our site: site paths in href,
 * src and srcset become absolute, and a fragment link points into the post's own page.
 */
export function absoluteContentHtml(html: string, publicUrl: string, postUrl: string): string {
  return html
    .replace(/ (href|src)="\/(?![/\\])/g, ` $1="${publicUrl}/`)
    .replace(/ href="#/g, ` href="${postUrl}#`)
    .replace(/ srcset="([^"]*)"/g, (_, set: string) => ` srcset="${set.replace(/(^|, )\/(?![/\\])/g, `$1${publicUrl}/`)}"`);
}

/** RSS 2.0 of published posts (the whole blog's, or one category's with its description); every link absolute from PUBLIC_URL. */
export function buildRss(
  publicUrl: string,
  channel: { category: Category; description: string } | null,
  posts: FeedPost[],
  siteName: string,
): string {
  const category = channel?.category;
  const selfPath = category ? `/7fs/${category}/rss.xml` : "/rss.xml";
  const link = category ? `${publicUrl}/7fs/${category}` : publicUrl;
  const title = category ? `${category} — 7 Fs Framework — ${siteName}` : `7 Fs Framework — ${siteName}`;
  const description = channel
    ? channel.description
    : "Faith, Finance, Fitness, Fun, Friends, Family and Figurehead: the 7 Fs Framework blog.";
  const items = posts
    .map((p) => {
      const url = `${publicUrl}${postPath(p.category, p.slug)}`;
      const encoded =
        p.contentHtml === null
          ? []
          : [`      <content:encoded>${escapeXml(absoluteContentHtml(p.contentHtml, publicUrl, url))}</content:encoded>`];
      return [
        "    <item>",
        `      <title>${escapeXml(p.title)}</title>`,
        `      <link>${escapeXml(url)}</link>`,
        // Still a permalink after a move: the first address answers 301 to the post.
        `      <guid isPermaLink="true">${escapeXml(p.firstPath ? `${publicUrl}${p.firstPath}` : url)}</guid>`,
        `      <category>${escapeXml(p.category)}</category>`,
        `      <pubDate>${p.publishedAt.toUTCString()}</pubDate>`,
        `      <description>${escapeXml(postSummary(p, 300))}</description>`,
        ...encoded,
        "    </item>",
      ].join("\n");
    })
    .join("\n");
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:content="http://purl.org/rss/1.0/modules/content/">',
    "  <channel>",
    `    <title>${escapeXml(title)}</title>`,
    `    <link>${escapeXml(link)}</link>`,
    `    <description>${escapeXml(description)}</description>`,
    "    <language>en-us</language>",
    `    <atom:link href="${escapeXml(publicUrl + selfPath)}" rel="self" type="application/rss+xml"/>`,
    ...(posts[0] ? [`    <lastBuildDate>${posts[0].publishedAt.toUTCString()}</lastBuildDate>`] : []),
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
