import { getSitemapDates } from "~/features/posts/read/home-posts.server";
import { buildSitemapIndex, sitemapResponse } from "~/features/pages/sitemap";
import { publicSiteUrl } from "~/features/settings/site-url.server";
import { getDb } from "~/server/db/client.server";
import { getEnv } from "~/server/env.server";

/** GET /sitemap.xml — the index of the sitemaps (pages, then the posts' files). */
export async function loader() {
  const dates = await getSitemapDates(getDb());
  return sitemapResponse(buildSitemapIndex(await publicSiteUrl(), dates.count, dates.newest, getEnv().SITEMAP_POSTS_PER_FILE));
}
