import { fediverseJson, webfinger } from "~/features/fediverse/fediverse.server";
import { getDb } from "~/server/db/client.server";
import type { Route } from "./+types/webfinger";

/** GET /.well-known/webfinger?resource=acct:{handle}@{host} — how Mastodon finds the site's actor (RFC 7033). */
export async function loader({ request }: Route.LoaderArgs) {
  const resource = new URL(request.url).searchParams.get("resource");
  if (!resource) return Response.json({ error: "Add ?resource=acct:handle@host to the address." }, { status: 400 });
  const found = await webfinger(getDb(), resource);
  if (!found) return Response.json({ error: "No one here goes by that name." }, { status: 404 });
  return fediverseJson(found, "application/jrd+json");
}
