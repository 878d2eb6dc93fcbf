import type { MetaDescriptor } from "react-router";

/** Open Graph / Twitter card image for pages without one of their own. */
export const DEFAULT_OG_IMAGE = "/images/og/default.jpg";

/** What every page's tags need from the site settings (the root loader's `seo`). */
export interface SeoContext {
  publicUrl: string;
  siteName: string;
  /** The owner's default social image; the shipped card when empty. */
  socialImageUrl: string;
}

/** An image with everything its Open Graph tags state (a generated share card). */
export interface SeoImage {
  url: string;
  width: number;
  height: number;
  type: string;
  alt: string;
}

export interface SeoInput {
  title: string;
  description: string;
  /** Path of the page, e.g. /about — made absolute with the public URL for canonical and og:url. */
  path: string;
  /** Absolute or site-relative image URL for Open Graph / Twitter cards; the site's default card image when absent. */
  image?: string | null;
  /** The image's alt text (og:image:alt, twitter:image:alt); only with `image`. */
  imageAlt?: string | null;
  /** The page's generated card: used when it has no `image` of its own, before the site's default. */
  card?: SeoImage | null;
  type?: "website" | "article";
  noindex?: boolean;
  publishedTime?: string;
  modifiedTime?: string;
}

function absolute(publicUrl: string, urlOrPath: string): string {
  return new URL(urlOrPath, `${publicUrl}/`).toString();
}

/** Title, description, canonical, Open Graph and Twitter tags for one page — one home for them. */
export function seoMeta(context: SeoContext, input: SeoInput): MetaDescriptor[] {
  const { publicUrl, siteName } = context;
  const url = absolute(publicUrl, input.path);
  // A page's own image first, then its generated card, then the owner's default social image, else
  // the shipped 1200×630 card.
  const ownImage = input.image && input.image !== DEFAULT_OG_IMAGE ? input.image : null;
  const card = ownImage ? null : (input.card ?? null);
  const image = absolute(publicUrl, ownImage ?? card?.url ?? (context.socialImageUrl || DEFAULT_OG_IMAGE));
  const isDefaultImage = !ownImage && !card && !context.socialImageUrl;
  const tags: MetaDescriptor[] = [
    { title: pageTitle(input.title, siteName) },
    { name: "description", content: input.description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:site_name", content: siteName },
    { property: "og:title", content: input.title },
    { property: "og:description", content: input.description },
    { property: "og:type", content: input.type ?? "website" },
    { property: "og:url", content: url },
    { property: "og:locale", content: "en_US" },
    { property: "og:image", content: image },
    ...(card
      ? [
          { property: "og:image:type", content: card.type },
          { property: "og:image:width", content: String(card.width) },
          { property: "og:image:height", content: String(card.height) },
          { property: "og:image:alt", content: card.alt },
        ]
      : []),
    ...(isDefaultImage
      ? [
          { property: "og:image:width", content: "1200" },
          { property: "og:image:height", content: "630" },
          { property: "og:image:alt", content: siteName },
        ]
      : []),
    { name: "twitter:card", content: "summary_large_image" },
    { name: "twitter:title", content: input.title },
    { name: "twitter:description", content: input.description },
    { name: "twitter:image", content: image },
    ...(card ? [{ name: "twitter:image:alt", content: card.alt }] : []),
  ];
  if (ownImage && input.imageAlt) {
    tags.push({ property: "og:image:alt", content: input.imageAlt }, { name: "twitter:image:alt", content: input.imageAlt });
  }
  if (input.publishedTime) tags.push({ property: "article:published_time", content: input.publishedTime });
  if (input.modifiedTime) tags.push({ property: "article:modified_time", content: input.modifiedTime });
  if (input.noindex) tags.push({ name: "robots", content: "noindex" });
  return tags;
}

/** The browser tab's title: the page's own, then the site name ("About Me | 7 Fs Portfolio"), unless it already leads with it. */
export function pageTitle(title: string, siteName: string): string {
  if (!title) return siteName;
  return title.startsWith(siteName) ? title : `${title} | ${siteName}`;
}

const FALLBACK_CONTEXT: SeoContext = { publicUrl: "http://localhost:3000", siteName: "Portfolio", socialImageUrl: "" };

function isSeoContext(value: unknown): value is SeoContext {
  return (
    typeof value === "object" &&
    value !== null &&
    "publicUrl" in value &&
    typeof value.publicUrl === "string" &&
    "siteName" in value &&
    typeof value.siteName === "string" &&
    "socialImageUrl" in value &&
    typeof value.socialImageUrl === "string"
  );
}

/** The SEO context the root loader exposes, read from route matches inside a `meta` function. */
export function seoContext(matches: ReadonlyArray<{ id: string; data?: unknown } | undefined>): SeoContext {
  const root = matches.find((m) => m?.id === "root")?.data;
  const seo = root && typeof root === "object" && "seo" in root ? root.seo : undefined;
  return isSeoContext(seo) ? seo : FALLBACK_CONTEXT;
}
