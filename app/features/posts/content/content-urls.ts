import { isSafeImageUrl } from "~/features/media/media-urls";

/**
 * What a link in post content may point to. Everything is decided by the WHATWG URL parser, the one
 * browsers use, so tabs, newlines, entities (already decoded by the Markdown parser), mixed case and
 * backslashes are read here exactly as a browser would read them.
 */
export type ContentLink =
  | { kind: "fragment"; href: string }
  | { kind: "internal"; href: string }
  | { kind: "external"; href: string }
  | { kind: "mailto"; href: string };

const LINK_PROTOCOLS = new Set(["http:", "https:", "mailto:"]);
/** A scheme at the start, as the URL parser would see it after dropping tabs and newlines. */
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;
/** The URL parser drops these anywhere in a URL, so `java\tscript:` is `javascript:`. */
const TAB_OR_NEWLINE = /[\t\n\r]/g;
// eslint-disable-next-line no-control-regex -- leading C0 controls and spaces are stripped by the URL parser too
const LEADING_C0_OR_SPACE = /^[\u0000-\u0020]+/;

function parse(value: string, base?: URL): URL | null {
  try {
    return new URL(value, base);
  } catch {
    return null;
  }
}

/**
 * A link target, or null when it must not become a link: any scheme but http, https and mailto
 * (javascript:, vbscript:, data:, file:, ...), a protocol-relative `//host` or `\\host`, a
 * path-relative `page`, or anything that resolves to another origin without an explicit http(s) scheme.
 * `siteUrl` is the site's public URL; absolute links to its host are internal.
 */
export function classifyLink(raw: string, siteUrl: URL): ContentLink | null {
  const value = raw.replace(LEADING_C0_OR_SPACE, "").replace(TAB_OR_NEWLINE, "");
  if (value === "") return null;
  if (value.startsWith("#")) {
    const url = parse(value, siteUrl);
    return url ? { kind: "fragment", href: url.hash || "#" } : null;
  }
  if (HAS_SCHEME.test(value)) {
    const url = parse(value);
    if (!url || !LINK_PROTOCOLS.has(url.protocol)) return null;
    if (url.protocol === "mailto:") return { kind: "mailto", href: url.href };
    return { kind: url.host === siteUrl.host ? "internal" : "external", href: url.href };
  }
  // Relative: only site-rooted paths (`/blog`, `?q`). `//evil.example`, `\\evil.example` and
  // `/\evil.example` resolve to another host; a path-relative `about` would depend on the page it is
  // shown on (post, preview, feed) and is what an encoded scheme like `java%09script:` turns into.
  if (!value.startsWith("/") && !value.startsWith("?")) return null;
  const url = parse(value, siteUrl);
  if (!url || url.origin !== siteUrl.origin) return null;
  return { kind: "internal", href: `${url.pathname}${url.search}${url.hash}` };
}

/** The URL-path form of an absolute URL on the site itself, so `https://site/uploads/x.png` and `/uploads/x.png` are the same image. */
export function sitePath(raw: string, siteUrl: URL): string {
  const url = parse(raw);
  if (url && (url.protocol === "http:" || url.protocol === "https:") && url.host === siteUrl.host) return `${url.pathname}${url.search}`;
  return raw;
}

/**
 * An image source, or null. Only our uploads, the shipped images and absolute http(s) URLs
 * (the rule media items follow) may be a source; `data:` and every other scheme never are.
 */
export function safeImageSrc(raw: string, siteUrl: URL): string | null {
  const value = sitePath(raw, siteUrl);
  if (!isSafeImageUrl(value)) return null;
  if (value.startsWith("/")) return value;
  const url = parse(value);
  return url ? url.href : null;
}
