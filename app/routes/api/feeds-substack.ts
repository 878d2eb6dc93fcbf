import { getFeedService } from "~/features/feeds/feeds.server";
import { errorBody } from "~/server/errors.server";
import type { Route } from "./+types/feeds-substack";

/** A JSON body of {substackUrl} is tiny; anything larger is refused before it is read in full. */
const MAX_BODY_BYTES = 4096;
const ALLOW = { Allow: "GET, POST" };

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

/** Reads at most `limit` bytes of the body as UTF-8; null when it is longer. */
async function readSmallBody(request: Request, limit: number): Promise<string | null> {
  const declared = Number(request.headers.get("content-length") ?? "");
  if (Number.isFinite(declared) && declared > limit) return null;
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** GET /api/feeds/substack?substackUrl=… — the newest newsletter post. */
export function loader({ request }: Route.LoaderArgs) {
  return answer(new URL(request.url).searchParams.get("substackUrl"));
}

/** POST /api/feeds/substack with JSON {substackUrl} (SPEC §7 fetch-substack). */
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") return Response.json({ error: "Method not allowed: use GET or POST." }, { status: 405, headers: ALLOW });
  const raw = await readSmallBody(request, MAX_BODY_BYTES);
  if (raw === null) return Response.json({ error: `Request body too large: send at most ${MAX_BODY_BYTES} bytes of JSON like {"substackUrl": "https://…"}.` }, { status: 413 });
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
  return answer("substackUrl" in body ? body.substackUrl : undefined);
}
