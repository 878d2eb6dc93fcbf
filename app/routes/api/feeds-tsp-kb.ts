import { getFeedService } from "~/features/feeds/feeds.server";
import type { Route } from "./+types/feeds-tsp-kb";

/** GET or POST /api/feeds/tsp-kb — the newest knowledge-base post (SPEC §7 fetch-tsp-kb, no body). */
async function answer() {
  const item = await getFeedService().fetchTspKb();
  if (!item) return Response.json({ error: "The knowledge-base feed is unavailable right now." }, { status: 502 });
  return Response.json(item, { headers: { "Cache-Control": "public, max-age=300" } });
}

export function loader(_args: Route.LoaderArgs) {
  return answer();
}

export function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") return Response.json({ error: "Method not allowed: use GET or POST." }, { status: 405, headers: { Allow: "GET, POST" } });
  return answer();
}
