import { feedItemResponse, getFeedService } from "~/features/feeds/feeds.server";
import { getSiteSettings } from "~/features/settings/settings.server";

/** GET or POST /api/feeds/tsp-blog — the newest blog post (SPEC §7 fetch-tsp-blog, no body). Other methods: the app-wide guard (server/app.ts). */
async function answer() {
  return feedItemResponse(await getFeedService(await getSiteSettings()).fetchTspBlog(), "The blog feed is unavailable right now.");
}

export const loader = answer;
export const action = answer;
