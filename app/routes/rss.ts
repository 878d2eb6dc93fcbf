import { listFeedPosts } from "~/features/posts/posts.server";
import { methodNotAllowedJson } from "~/features/posts/http.server";
import { buildRss, rssResponse } from "~/features/posts/rss.server";
import { getDb } from "~/server/db/client.server";
import { getEnv } from "~/server/env.server";

/** GET /rss.xml — the whole blog's published posts. */
export async function loader() {
  return rssResponse(buildRss(getEnv().publicUrl, null, await listFeedPosts(getDb(), null)));
}

/** Feeds and files are read-only: other methods get a 405 with a message, not a server error. */
export function action() {
  return methodNotAllowedJson();
}
