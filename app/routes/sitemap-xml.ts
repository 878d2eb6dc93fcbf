import { getSitemapDates } from "~/features/posts/home-posts.server";
import { buildSitemapIndex, sitemapResponse } from "~/features/site/sitemap";
import { getDb } from "~/server/db/client.server";
import { getEnv } from "~/server/env.server";

/** GET /sitemap.xml — the index of the sitemaps (pages, then posts in files of at most 50,000). */
export async function loader() {
  const dates = await getSitemapDates(getDb());
  return sitemapResponse(buildSitemapIndex(getEnv().publicUrl, dates.count, dates.newest));
}
