import { fediverseJson, followersDocument } from "~/features/fediverse/fediverse.server";
import { getDb } from "~/server/db/client.server";

/** GET /ap/followers — how many follow the site (not who). */
export async function loader() {
  return fediverseJson(await followersDocument(getDb()));
}
