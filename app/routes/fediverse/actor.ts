import { redirect } from "react-router";
import { actorDocument, fediverseJson, wantsHtml } from "~/features/fediverse/fediverse.server";
import { getDb } from "~/server/db/client.server";
import type { Route } from "./+types/actor";

/**
 * GET /ap/actor — the site's ActivityPub actor (at an earlier site address: the earlier actor, moved
 * to the current one); a browser is sent to the home page.
 */
export async function loader({ request }: Route.LoaderArgs) {
  if (wantsHtml(request)) throw redirect("/");
  return fediverseJson(await actorDocument(getDb(), new URL(request.url).host));
}
