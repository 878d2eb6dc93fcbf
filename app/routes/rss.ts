import { listFeedPosts } from "~/features/posts/posts.server";
import { buildRss, rssResponse } from "~/features/posts/rss.server";
import { getSiteSettings } from "~/features/site/settings.server";
import { publicSiteUrl } from "~/features/site/site-url.server";
import { getDb } from "~/server/db/client.server";
import type { Route } from "./+types/rss";

/** GET /rss.xml — the whole blog's published posts. */
export async function loader({ request }: Route.LoaderArgs) {
  return rssResponse(buildRss(await publicSiteUrl(request), null, await listFeedPosts(getDb(), null), (await getSiteSettings()).siteName));
}
