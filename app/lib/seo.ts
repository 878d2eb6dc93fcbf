import type { MetaDescriptor } from "react-router";

export const SITE_NAME = "7 Fs Portfolio";

export interface SeoInput {
  title: string;
  description: string;
  /** Path of the page, e.g. /about — made absolute with the public URL for canonical and og:url. */
  path: string;
  /** Absolute or site-relative image URL for Open Graph / Twitter cards. */
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
  const image = input.image ? absolute(publicUrl, input.image) : undefined;
  const tags: MetaDescriptor[] = [
    { title: input.title },
    { name: "description", content: input.description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:site_name", content: SITE_NAME },
    { property: "og:title", content: input.title },
    { property: "og:description", content: input.description },
    { property: "og:type", content: input.type ?? "website" },
    { property: "og:url", content: url },
    { name: "twitter:card", content: image ? "summary_large_image" : "summary" },
    { name: "twitter:title", content: input.title },
    { name: "twitter:description", content: input.description },
  ];
  if (image) tags.push({ property: "og:image", content: image }, { name: "twitter:image", content: image });
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
