import { feedItemResponse, getFeedService } from "~/features/feeds/feeds.server";
import { getSiteSettings } from "~/features/settings/settings.server";
import { getDb } from "~/server/db/client.server";
import { apiFailure } from "~/server/failure-reply.server";
import { readBodyUpTo } from "~/server/form.server";
import { LIMITS } from "~/server/limits.server";
import { enforceRateLimits } from "~/server/rate-limit.server";
import { clientIp } from "~/server/request.server";
import type { Route } from "./+types/feeds-substack";

/** Requests naming a newsletter address (each may make the server fetch it) per IP address in 10 minutes. */
const NAMED_FEEDS_PER_IP = 30;

async function answer(request: Request, substackUrl: unknown) {
  const feeds = getFeedService(await getSiteSettings());
  try {
    const url = substackUrl === undefined || substackUrl === null || substackUrl === "" ? undefined : feeds.parseSubstackUrl(substackUrl);
    if (url !== undefined)
      await enforceRateLimits(
        getDb(),
        [{ key: `substack-feed:ip:${clientIp(request)}`, limit: NAMED_FEEDS_PER_IP, windowSeconds: 600 }],
        "Too many newsletter lookups from this address. Please try again in a few minutes.",
      );
    return feedItemResponse(await feeds.fetchSubstack(url), "The newsletter feed is unavailable right now.");
  } catch (error) {
    return apiFailure(error);
  }
}

/** At most `limit` bytes of the body as UTF-8; null when it is longer (declared or streamed). */
async function readSmallBody(request: Request, limit: number): Promise<string | null> {
  const declared = Number(request.headers.get("content-length") ?? "");
  if (Number.isFinite(declared) && declared > limit) return null;
  const bytes = await readBodyUpTo(request, limit);
  return bytes && Buffer.from(bytes).toString("utf8");
}

/** GET /api/feeds/substack?substackUrl=… — the newest newsletter post. */
export function loader({ request }: Route.LoaderArgs) {
  return answer(request, new URL(request.url).searchParams.get("substackUrl"));
}

/** POST /api/feeds/substack with JSON {substackUrl} (SPEC §7 fetch-substack). */
export async function action({ request }: Route.ActionArgs) {
  // A JSON body of {substackUrl} is tiny; anything larger is refused before it is read in full.
  const raw = await readSmallBody(request, LIMITS.substackJson);
  if (raw === null)
    return Response.json(
      { error: `Request body too large: send at most ${LIMITS.substackJson} bytes of JSON like {"substackUrl": "https://…"}.` },
      { status: 413 },
    );
  let body: unknown = {};
  if (raw.trim()) {
    try {
      body = JSON.parse(raw);
    } catch {
      return Response.json({ error: 'Request body must be JSON like {"substackUrl": "https://…"}.' }, { status: 400 });
    }
  }
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    return Response.json({ error: 'Request body must be a JSON object like {"substackUrl": "https://…"}.' }, { status: 400 });
  }
  return answer(request, "substackUrl" in body ? body.substackUrl : undefined);
}
