import type { MetaDescriptor } from "react-router";
export const SITE_NAME = "7 Fs Portfolio";

/** Open Graph / Twitter card image for pages without one of their own. */
export const DEFAULT_OG_IMAGE = "/images/og/default.jpg";

export interface SeoInput {
  title: string;
  description: string;
  /** Path of the page, e.g. /about — made absolute with the public URL for canonical and og:url. */
  path: string;
  /** Absolute or site-relative image URL for Open Graph / Twitter cards; the site's default card image when absent. */
  image?: string | null;
  type?: "website" | "article";
  noindex?: boolean;
  publishedTime?: string;
  modifiedTime?: string;
}

function absolute(publicUrl: string, urlOrPath: string): string {
  return new URL(urlOrPath, `${publicUrl}/`).toString();
}

/** Title, description, canonical, Open Graph and Twitter tags for one page — one home for them. */
export function seoMeta(publicUrl: string, input: SeoInput): MetaDescriptor[] {
  const url = absolute(publicUrl, input.path);
  // Every page gets a large card: its own image, else the shipped 1200×630 default (link previews need one).
  const image = absolute(publicUrl, input.image || DEFAULT_OG_IMAGE);
  const isDefaultImage = !input.image || input.image === DEFAULT_OG_IMAGE;
  const tags: MetaDescriptor[] = [
    { title: input.title },
    { name: "description", content: input.description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:site_name", content: SITE_NAME },
    { property: "og:title", content: input.title },
    { property: "og:description", content: input.description },
    { property: "og:type", content: input.type ?? "website" },
    { property: "og:url", content: url },
    { property: "og:locale", content: "en_US" },
    { property: "og:image", content: image },
    ...(isDefaultImage
      ? [
          { property: "og:image:width", content: "1200" },
          { property: "og:image:height", content: "630" },
          { property: "og:image:alt", content: SITE_NAME },
        ]
      : []),
    { name: "twitter:card", content: "summary_large_image" },
    { name: "twitter:title", content: input.title },
    { name: "twitter:description", content: input.description },
    { name: "twitter:image", content: image },
  ];
  if (input.publishedTime) tags.push({ property: "article:published_time", content: input.publishedTime });
  if (input.modifiedTime) tags.push({ property: "article:modified_time", content: input.modifiedTime });
  if (input.noindex) tags.push({ name: "robots", content: "noindex" });
  return tags;
}

/** The public URL the root loader exposes, read from route matches inside a `meta` function. */
export function publicUrlFromMatches(matches: ReadonlyArray<{ id: string; data?: unknown } | undefined>): string {
  const root = matches.find((m) => m?.id === "root")?.data;
  if (root && typeof root === "object" && "publicUrl" in root && typeof root.publicUrl === "string") return root.publicUrl;
  return "http://localhost:3000";
}
