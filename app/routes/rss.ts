import { listFeedPosts } from "~/features/posts/posts.server";
import { buildRss, rssResponse } from "~/features/posts/rss.server";
import { getSiteSettings } from "~/features/site/settings.server";
import { getDb } from "~/server/db/client.server";
import { getEnv } from "~/server/env.server";

/** GET /rss.xml — the whole blog's published posts. */
export async function loader() {
  return rssResponse(buildRss(getEnv().publicUrl, null, await listFeedPosts(getDb(), null), (await getSiteSettings()).siteName));
}
