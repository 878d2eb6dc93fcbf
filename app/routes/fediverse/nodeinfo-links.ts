import { siteIdentity } from "~/features/fediverse/fediverse.server";
import { fediverseJson } from "~/features/fediverse/fediverse.server";
import { getDb } from "~/server/db/client.server";

/** GET /.well-known/nodeinfo — where the NodeInfo document is. */
export async function loader() {
  const { siteUrl } = await siteIdentity(getDb());
  return fediverseJson(
    { links: [{ rel: "http://nodeinfo.diaspora.software/ns/schema/2.1", href: `${siteUrl}/nodeinfo/2.1` }] },
    "application/json",
  );
}
