import { fromHtml } from "hast-util-from-html";
import { visit } from "unist-util-visit";
import type { MentionKind } from "~/server/db/schema.server";

/** Attributes whose address counts as a link from a source page to a target (W3C Webmention §3.2.2). */
const LINK_ATTRIBUTES = ["href", "src", "poster", "cite"] as const;

const MAX = { name: 80, url: 300, content: 4000, photo: 2000 } as const;

/** The absolute http(s) address `raw` names on a page at `base`, without its fragment; null for anything else. */
export function absoluteUrl(raw: string, base: string): string | null {
  if (!URL.canParse(raw.trim(), base)) return null;
  const url = new URL(raw.trim(), base);
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  url.hash = "";
  return url.href;
}

/** Every address a page links to (links, images, media, quotes), absolute, in document order. */
export function linkedUrls(html: string, base: string): string[] {
  const found: string[] = [];
  visit(fromHtml(html), "element", (node) => {
    for (const name of LINK_ATTRIBUTES) {
      const value = node.properties?.[name];
      if (typeof value !== "string") continue;
      const url = absoluteUrl(value, base);
      if (url) found.push(url);
    }
  });
  return found;
}

/** The href of the first <link> or <a> with rel="webmention", in document order (as written; may be empty). */
export function relEndpoint(html: string): string | null {
  let found: string | null = null;
  visit(fromHtml(html), "element", (node) => {
    if (found !== null || (node.tagName !== "link" && node.tagName !== "a")) return;
    const rel = node.properties?.rel;
    const href = node.properties?.href;
    if (!Array.isArray(rel) || !rel.some((r) => String(r).toLowerCase() === "webmention") || typeof href !== "string") return;
    found = href;
  });
  return found;
}

export interface ParsedMention {
  kind: MentionKind;
  authorName: string;
  authorUrl: string | null;
  /** The entry's text (a reply's answer); empty for a like or a repost. */
  content: string;
  /** The author's h-card photo when it is a plain address (copied to our storage, never shown as is). */
  photoUrl: string | null;
}

type Property = string | { value?: unknown; html?: string; type?: string[]; properties?: Record<string, unknown[]> };
type Item = { type?: string[]; properties: Record<string, Property[]>; children?: Item[] };

const textOf = (property: Property | undefined): string => {
  if (typeof property === "string") return property;
  if (property && typeof property.value === "string") return property.value;
  return "";
};
const urlsOf = (values: Property[] | undefined, base: string): string[] =>
  (values ?? []).flatMap((value) => {
    const url = typeof value === "string" ? value : textOf(value.properties?.url?.[0] as Property | undefined) || textOf(value);
    const absolute = url ? absoluteUrl(url, base) : null;
    return absolute ? [absolute] : [];
  });

function firstEntry(items: readonly Item[]): Item | undefined {
  for (const item of items) {
    if (item.type?.includes("h-entry")) return item;
    const nested = firstEntry(item.children ?? []);
    if (nested) return nested;
  }
  return undefined;
}

/** Same address, ignoring a trailing slash and the scheme's default port (a target may be written either way). */
export function sameUrl(a: string, b: string): boolean {
  const norm = (u: string) => new URL(u).href.replace(/\/$/, "");
  return URL.canParse(a) && URL.canParse(b) && norm(a) === norm(b);
}

/**
 * What a source page says about the target, read from its microformats2 (the first h-entry): a reply
 * (in-reply-to), a like (like-of), a repost (repost-of) or a plain mention; the author from the
 * entry's h-card (or the page's host), and the entry's text for a reply or mention. The microformats
 * parser is loaded with the first mention received (~8 MB resident a site without mentions never needs).
 */
export async function parseMention(html: string, sourceUrl: string, target: string): Promise<ParsedMention> {
  const { mf2 } = await import("microformats-parser");
  const entry = firstEntry(mf2(html, { baseUrl: sourceUrl }).items as Item[]);
  const props = entry?.properties ?? {};
  const names = (name: string) => urlsOf(props[name], sourceUrl).some((url) => sameUrl(url, target));
  const kind: MentionKind = names("like-of") ? "like" : names("repost-of") ? "repost" : names("in-reply-to") ? "reply" : "mention";
  const author = props.author?.[0];
  const authorCard = typeof author === "object" ? author.properties : undefined;
  const authorName = (authorCard ? textOf(authorCard.name?.[0] as Property | undefined) || textOf(author) : textOf(author)).trim();
  const authorUrl = authorCard ? urlsOf(authorCard.url as Property[] | undefined, sourceUrl)[0] : undefined;
  const photo = textOf(authorCard?.photo?.[0] as Property | undefined);
  const photoUrl = photo && photo.length <= MAX.photo ? absoluteUrl(photo, sourceUrl) : null;
  const content =
    kind === "like" || kind === "repost"
      ? ""
      : (textOf(props.content?.[0]) || textOf(props.summary?.[0]) || textOf(props.name?.[0])).trim();
  const host = new URL(sourceUrl).host;
  return {
    kind,
    authorName: (authorName || host).slice(0, MAX.name),
    authorUrl: (authorUrl ?? new URL(sourceUrl).origin).slice(0, MAX.url),
    content: content.slice(0, MAX.content),
    photoUrl,
  };
}
