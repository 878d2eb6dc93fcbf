import { fediverseJson, outboxDocument } from "~/features/fediverse/fediverse.server";
import { getDb } from "~/server/db/client.server";
import { apiFailure } from "~/server/failure-reply.server";
import type { Route } from "./+types/outbox";

/** GET /ap/outbox — the published posts as Create activities: the collection, or one page of it (?page=true[&before=…]). */
export async function loader({ request }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  try {
    return fediverseJson(await outboxDocument(getDb(), { page: params.get("page"), before: params.get("before") }));
  } catch (error) {
    return apiFailure(error);
  }
}
