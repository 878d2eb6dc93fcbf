import { fediverseJson, outboxDocument } from "~/features/fediverse/fediverse.server";
import { getDb } from "~/server/db/client.server";

/** GET /ap/outbox — the newest published posts, as Create activities. */
export async function loader() {
  return fediverseJson(await outboxDocument(getDb()));
}
