import { listFeedPosts } from "~/features/posts/write/posts.server";
import { buildRss, rssResponse } from "~/features/posts/read/rss.server";
import { getSiteSettings } from "~/features/settings/settings.server";
import { publicSiteUrl } from "~/features/settings/site-url.server";
import { getDb } from "~/server/db/client.server";

/** GET /rss.xml — the whole blog's published posts. */
export async function loader() {
  return rssResponse(buildRss(await publicSiteUrl(), null, await listFeedPosts(getDb(), null), (await getSiteSettings()).siteName));
}
