import { CATEGORIES, categoryPath, postPath, type Category } from "~/lib/categories";
import { escapeXml } from "~/lib/xml";

const PUBLIC_PAGES = ["/", "/about", "/recent-roles", "/projects", "/testimonials", "/contact"] as const;

export interface SitemapPost {
  slug: string;
  category: Category;
  updatedAt: Date;
}

/** The public pages, the seven categories and every published post, as absolute URLs. */
export function buildSitemap(publicUrl: string, posts: SitemapPost[]): string {
  // A listing changes when one of its posts does: the home page and each category carry their newest post's date.
  const newest = (list: SitemapPost[]) =>
    list
      .reduce<Date | undefined>((latest, post) => (!latest || post.updatedAt > latest ? post.updatedAt : latest), undefined)
      ?.toISOString();
  const entries = [
    ...PUBLIC_PAGES.map((path) => ({ path, lastmod: path === "/" ? newest(posts) : undefined })),
    ...CATEGORIES.map((category) => ({
      path: categoryPath(category),
      lastmod: newest(posts.filter((post) => post.category === category)),
    })),
    ...posts.map((post) => ({ path: postPath(post.category, post.slug), lastmod: post.updatedAt.toISOString() })),
  ];
  const urls = entries
    .map(({ path, lastmod }) => {
      const loc = `<loc>${escapeXml(new URL(path, `${publicUrl}/`).toString())}</loc>`;
      return `  <url>${loc}${lastmod ? `<lastmod>${lastmod}</lastmod>` : ""}</url>`;
    })
    .join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
}
