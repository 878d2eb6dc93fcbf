import { XMLParser } from "fast-xml-parser";
import { feedItemSchema, type FeedItem } from "./feed-item";

export type ParsedDocument =
  | { kind: "item"; item: FeedItem }
  /** An HTML page without OpenGraph data that advertises a feed elsewhere. */
  | { kind: "alternate"; feedUrl: string }
  | { kind: "none"; reason: string };

const DESCRIPTION_LIMIT = 280;

const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  textNodeName: "#text",
  processEntities: true,
  htmlEntities: true,
  // Feeds are small documents; refuse entity expansion tricks.
  parseTagValue: false,
  trimValues: true,
});

type Node = unknown;

function first(value: Node): Node {
  return Array.isArray(value) ? value[0] : value;
}

function field(node: Node, key: string): Node {
  if (node && typeof node === "object" && !Array.isArray(node)) return (node as Record<string, unknown>)[key];
  return undefined;
}

function text(node: Node): string {
  const value = first(node);
  if (typeof value === "string") return value;
  if (typeof value === "number") return String(value);
  const inner = field(value, "#text");
  return typeof inner === "string" ? inner : "";
}

function attr(node: Node, name: string): string {
  const value = field(first(node), `@_${name}`);
  return typeof value === "string" ? value : "";
}

const NAMED_ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " ", "#39": "'" };

function decodeEntities(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, code: string) => {
    const lower = code.toLowerCase();
    if (lower.startsWith("#x")) return safeCodePoint(Number.parseInt(lower.slice(2), 16)) ?? whole;
    if (lower.startsWith("#")) return safeCodePoint(Number.parseInt(lower.slice(1), 10)) ?? whole;
    return NAMED_ENTITIES[lower] ?? whole;
  });
}

function safeCodePoint(code: number): string | undefined {
  return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : undefined;
}

const BLOCK_EDGE =
  /<\/?(?:address|article|aside|blockquote|br|dd|div|dl|dt|figcaption|figure|footer|h[1-6]|header|hr|li|ol|p|pre|section|table|td|th|tr|ul)\b[^>]*>/gi;

/** Plain text from an HTML fragment, shortened on a word boundary. */
export function plainText(html: string, limit = DESCRIPTION_LIMIT): string {
  // A block's edge is a space; an inline tag is nothing ("<strong>live</strong>," stays "live,").
  const stripped = decodeEntities(
    html
      .replace(/<(script|style)[\s\S]*?<\/\1>/gi, " ")
      .replace(BLOCK_EDGE, " ")
      .replace(/<[^>]*>/g, ""),
  )
    .replace(/\s+/g, " ")
    .trim();
  if (stripped.length <= limit) return stripped;
  const cut = stripped.slice(0, limit);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(" "), limit - 40)).trimEnd()}…`;
}

function resolve(url: string, base: string): string | null {
  if (!url) return null;
  try {
    const resolved = new URL(decodeEntities(url.trim()), base);
    return resolved.protocol === "http:" || resolved.protocol === "https:" ? resolved.toString() : null;
  } catch {
    return null;
  }
}

function firstImageIn(html: string): string {
  return /<img[^>]+src=["']([^"']+)["']/i.exec(html)?.[1] ?? "";
}

function validated(candidate: { title: string; description: string; image: string | null; link: string | null }): ParsedDocument {
  const parsed = feedItemSchema.safeParse({ ...candidate, title: plainText(candidate.title, 300) });
  if (!parsed.success) return { kind: "none", reason: `invalid item: ${parsed.error.issues.map((i) => i.path.join(".")).join(", ")}` };
  return { kind: "item", item: parsed.data };
}

function fromRss(channel: Node, base: string): ParsedDocument {
  const item = first(field(channel, "item"));
  if (!item) return { kind: "none", reason: "RSS feed has no items" };
  const content = text(field(item, "content:encoded"));
  const description = text(field(item, "description"));
  const image =
    attr(field(item, "enclosure"), "url") ||
    attr(field(item, "media:content"), "url") ||
    attr(field(item, "media:thumbnail"), "url") ||
    firstImageIn(content) ||
    firstImageIn(description);
  return validated({
    title: text(field(item, "title")),
    description: plainText(description || content),
    image: resolve(image, base),
    link: resolve(text(field(item, "link")) || text(field(item, "guid")), base),
  });
}

function atomLink(entry: Node): string {
  const links = field(entry, "link");
  const list = Array.isArray(links) ? links : [links];
  const alternate = list.find((l) => !attr(l, "rel") || attr(l, "rel") === "alternate") ?? list[0];
  return attr(alternate, "href");
}

function fromAtom(feed: Node, base: string): ParsedDocument {
  const entry = first(field(feed, "entry"));
  if (!entry) return { kind: "none", reason: "Atom feed has no entries" };
  const summary = text(field(entry, "summary"));
  const content = text(field(entry, "content"));
  const image =
    attr(field(entry, "media:thumbnail"), "url") ||
    attr(field(entry, "media:content"), "url") ||
    firstImageIn(content) ||
    firstImageIn(summary);
  return validated({
    title: text(field(entry, "title")),
    description: plainText(summary || content),
    image: resolve(image, base),
    link: resolve(atomLink(entry), base),
  });
}

/** Attributes of every <meta> and <link> tag in an HTML document's head. */
function tags(html: string, name: "meta" | "link"): Record<string, string>[] {
  const head = html.slice(0, 200_000);
  const found: Record<string, string>[] = [];
  for (const match of head.matchAll(new RegExp(`<${name}\\b([^>]*)>`, "gi"))) {
    const attributes: Record<string, string> = {};
    for (const a of (match[1] ?? "").matchAll(/([a-z:_-]+)\s*=\s*("([^"]*)"|'([^']*)'|([^\s"'>]+))/gi)) {
      attributes[(a[1] ?? "").toLowerCase()] = decodeEntities(a[3] ?? a[4] ?? a[5] ?? "");
    }
    found.push(attributes);
  }
  return found;
}

function fromHtml(html: string, base: string): ParsedDocument {
  const metas = tags(html, "meta");
  const meta = (...keys: string[]) => {
    for (const key of keys) {
      const hit = metas.find((m) => (m.property ?? m.name ?? "").toLowerCase() === key);
      if (hit?.content) return hit.content;
    }
    return "";
  };
  const title = meta("og:title", "twitter:title");
  if (title) {
    return validated({
      title,
      description: plainText(meta("og:description", "twitter:description", "description")),
      image: resolve(meta("og:image", "og:image:url", "twitter:image"), base),
      link: resolve(meta("og:url"), base) ?? resolve(base, base),
    });
  }
  const alternate = tags(html, "link").find((l) => l.rel?.toLowerCase() === "alternate" && /(rss|atom)\+xml/i.test(l.type ?? ""));
  const feedUrl = alternate?.href ? resolve(alternate.href, base) : null;
  if (feedUrl) return { kind: "alternate", feedUrl };
  return { kind: "none", reason: "HTML page without OpenGraph tags or a feed link" };
}

/** Reads the newest entry of an RSS or Atom document, or the OpenGraph tags of an HTML page. */
export function parseFeedDocument(body: string, baseUrl: string): ParsedDocument {
  const trimmed = body.trimStart();
  if (/^<!doctype html|^<html[\s>]/i.test(trimmed)) return fromHtml(body, baseUrl);
  if (trimmed.startsWith("<")) {
    let doc: Node;
    try {
      doc = xml.parse(body);
    } catch {
      return fromHtml(body, baseUrl);
    }
    const rss = field(doc, "rss");
    if (rss) return fromRss(field(rss, "channel"), baseUrl);
    const atom = field(doc, "feed");
    if (atom) return fromAtom(atom, baseUrl);
    const rdf = field(doc, "rdf:RDF");
    if (rdf) return fromRss(rdf, baseUrl);
    return fromHtml(body, baseUrl);
  }
  return { kind: "none", reason: "response is neither a feed nor an HTML page" };
}
