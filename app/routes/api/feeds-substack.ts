import { getFeedService } from "~/features/feeds/feeds.server";
import { errorBody } from "~/server/errors.server";
import type { Route } from "./+types/feeds-substack";

async function answer(substackUrl: unknown) {
  const feeds = getFeedService();
  try {
    const url = substackUrl === undefined || substackUrl === null || substackUrl === "" ? undefined : feeds.parseSubstackUrl(substackUrl);
    const item = await feeds.fetchSubstack(url);
    if (!item) return Response.json({ error: "The newsletter feed is unavailable right now." }, { status: 502 });
    return Response.json(item, { headers: { "Cache-Control": "public, max-age=300" } });
  } catch (error) {
    const { status, body } = errorBody(error);
    return Response.json(body, { status });
  }
}

/** GET /api/feeds/substack?substackUrl=… — the newest newsletter post. */
export function loader({ request }: Route.LoaderArgs) {
  return answer(new URL(request.url).searchParams.get("substackUrl"));
}

/** POST /api/feeds/substack with JSON {substackUrl} (SPEC §7 fetch-substack). */
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") return Response.json({ error: "Method not allowed" }, { status: 405 });
  let body: unknown = {};
  const raw = await request.text();
  if (raw.trim()) {
    try {
      body = JSON.parse(raw);
    } catch {
      return Response.json({ error: "Request body must be JSON" }, { status: 400 });
    }
  }
  const substackUrl = body && typeof body === "object" && "substackUrl" in body ? body.substackUrl : undefined;
  return answer(substackUrl);
}
