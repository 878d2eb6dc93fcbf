import { listPublishedPostsForSitemap } from "~/features/posts/home-posts.server";
import { buildSitemap } from "~/features/site/sitemap";
import { getDb } from "~/server/db/client.server";
import { getEnv } from "~/server/env.server";

/** GET /sitemap.xml */
export async function loader() {
  const body = buildSitemap(getEnv().publicUrl, await listPublishedPostsForSitemap(getDb()));
  return new Response(body, { headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=600" } });
}
