import { listPublishedPostsForSitemap } from "~/features/posts/home-posts.server";
import { CATEGORIES, categoryPath, postPath } from "~/lib/categories";
import { getDb } from "~/server/db/client.server";
import { getEnv } from "~/server/env.server";

const PUBLIC_PAGES = ["/", "/about", "/recent-roles", "/projects", "/testimonials", "/contact"] as const;

function escapeXml(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;");
}

/** GET /sitemap.xml — the public pages, the seven categories and every published post, as absolute URLs. */
export async function loader() {
  const { publicUrl } = getEnv();
  const posts = await listPublishedPostsForSitemap(getDb());
  // A listing changes when one of its posts does: the home page and each category carry their newest post's date.
  const newest = (list: typeof posts) =>
    list.reduce<Date | undefined>((latest, post) => (!latest || post.updatedAt > latest ? post.updatedAt : latest), undefined)?.toISOString();
  const entries = [
    ...PUBLIC_PAGES.map((path) => ({ path, lastmod: path === "/" ? newest(posts) : undefined })),
    ...CATEGORIES.map((category) => ({ path: categoryPath(category), lastmod: newest(posts.filter((post) => post.category === category)) })),
    ...posts.map((post) => ({ path: postPath(post.category, post.slug), lastmod: post.updatedAt.toISOString() })),
  ];
  const urls = entries
    .map(({ path, lastmod }) => {
      const loc = `<loc>${escapeXml(new URL(path, `${publicUrl}/`).toString())}</loc>`;
      return `  <url>${loc}${lastmod ? `<lastmod>${lastmod}</lastmod>` : ""}</url>`;
    })
    .join("\n");
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
  return new Response(body, { headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=600" } });
}
