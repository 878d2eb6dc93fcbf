import { redirect } from "react-router";
import { fediverseJson, postObject, wantsHtml } from "~/features/fediverse/fediverse.server";
import { getDb } from "~/server/db/client.server";
import type { Route } from "./+types/post";

/** GET /ap/posts/:id — a published post as an ActivityPub Article; a browser is sent to the post's page. */
export async function loader({ request, params }: Route.LoaderArgs) {
  const article = await postObject(getDb(), params.id);
  if (!article) return Response.json({ error: "This post does not exist." }, { status: 404 });
  if (wantsHtml(request)) throw redirect(article.url);
  return fediverseJson(article);
}
