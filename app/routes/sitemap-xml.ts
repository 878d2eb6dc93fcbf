import { listPublishedPostsForSitemap } from "~/features/posts/home-posts.server";
import { buildSitemap } from "~/features/site/sitemap";
import { publicSiteUrl } from "~/features/site/site-url.server";
import { getDb } from "~/server/db/client.server";
import type { Route } from "./+types/sitemap-xml";

/** GET /sitemap.xml */
export async function loader({ request }: Route.LoaderArgs) {
  const body = buildSitemap(await publicSiteUrl(request), await listPublishedPostsForSitemap(getDb()));
  return new Response(body, { headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=600" } });
}
