import { postPath, type Category } from "~/lib/categories";
import { postSummary } from "../content/summary";

export interface JsonLdPost {
  title: string;
  slug: string;
  category: Category;
  excerpt: string | null;
  /** The post's plain text (the rendered content's visible text, not its Markdown). */
  content: string;
  publishedAt: Date;
  updatedAt: Date;
}

/**
 * schema.org BlogPosting for a post page. `image` is the featured image already judged safe to show, or
 * the post's generated share image (absolute or site-relative); the site is both author and publisher,
 * as it has one owner.
 */
export function blogPostingJsonLd(publicUrl: string, post: JsonLdPost, image: string | null, siteName: string) {
  const url = `${publicUrl}${postPath(post.category, post.slug)}`;
  const site = { "@type": "Organization", name: siteName, url: publicUrl };
  return {
    "@context": "https://schema.org",
    "@type": "BlogPosting",
    headline: post.title,
    description: postSummary(post, 300),
    datePublished: post.publishedAt.toISOString(),
    dateModified: post.updatedAt.toISOString(),
    articleSection: post.category,
    articleBody: post.content,
    url,
    mainEntityOfPage: { "@type": "WebPage", "@id": url },
    author: site,
    publisher: site,
    ...(image ? { image: new URL(image, `${publicUrl}/`).toString() } : {}),
  };
}
