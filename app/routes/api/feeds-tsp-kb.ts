import { feedItemResponse, getFeedService } from "~/features/feeds/feeds.server";
import { getSiteSettings } from "~/features/settings/settings.server";

/** GET or POST /api/feeds/tsp-kb — the newest knowledge-base post (SPEC §7 fetch-tsp-kb, no body). Other methods: the app-wide guard (server/app.ts). */
async function answer() {
  return feedItemResponse(await getFeedService(await getSiteSettings()).fetchTspKb(), "The knowledge-base feed is unavailable right now.");
}

export const loader = answer;
export const action = answer;
