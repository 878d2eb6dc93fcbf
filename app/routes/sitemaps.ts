import { getSitemapDates, listPublishedPostsForSitemap } from "~/features/posts/read/home-posts.server";
import { publicSiteUrl } from "~/features/settings/site-url.server";
import { buildPagesSitemap, buildPostsSitemap, postsFileCount, postsFileIds, sitemapResponse } from "~/features/pages/sitemap";
import { ownerPagePath } from "~/features/owner-pages/owner-page-schema";
import { listPublishedPages } from "~/features/owner-pages/owner-pages.server";
import { getDb } from "~/server/db/client.server";
import { getEnv } from "~/server/env.server";
import type { Route } from "./+types/sitemaps";

function notFound(): Response {
  return new Response("There is no such sitemap. The list of sitemaps is at /sitemap.xml.\n", {
    status: 404,
    headers: { "Content-Type": "text/plain; charset=utf-8" },
  });
}

/** GET /sitemaps/pages.xml and /sitemaps/posts-N.xml — the files /sitemap.xml lists. */
export async function loader({ params }: Route.LoaderArgs) {
  const db = getDb();
  const publicUrl = await publicSiteUrl();
  if (params.file === "pages.xml") {
    const [dates, pages] = await Promise.all([getSitemapDates(db), listPublishedPages(db)]);
    const ownerPages = pages.map((page) => ({ path: ownerPagePath(page.address), updatedAt: page.updatedAt }));
    return sitemapResponse(buildPagesSitemap(publicUrl, dates, ownerPages));
  }
  const file = Number(/^posts-([1-9]\d{0,5})\.xml$/.exec(params.file)?.[1] ?? 0);
  if (!file) return notFound();
  const { count } = await getSitemapDates(db);
  const files = postsFileCount(count, getEnv().SITEMAP_POSTS_PER_FILE);
  if (file > files) return notFound();
  return sitemapResponse(buildPostsSitemap(publicUrl, await listPublishedPostsForSitemap(db, postsFileIds(file, files))));
}
