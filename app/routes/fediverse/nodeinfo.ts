import { fediverseJson, nodeInfo } from "~/features/fediverse/fediverse.server";
import { getDb } from "~/server/db/client.server";

/** GET /nodeinfo/2.1 — what software this is and what it speaks (NodeInfo 2.1). */
export async function loader() {
  return fediverseJson(await nodeInfo(getDb()), 'application/json; profile="http://nodeinfo.diaspora.software/ns/schema/2.1#"');
}
