import { redirect } from "react-router";
import { listFeedPosts } from "~/features/posts/write/posts.server";
import { buildRss, rssResponse } from "~/features/posts/read/rss.server";
import { getSiteSettings } from "~/features/settings/settings.server";
import { publicSiteUrl } from "~/features/settings/site-url.server";
import { CATEGORIES, categoryPath, parseCategory } from "~/lib/categories";
import { categoryDescriptionKey } from "~/features/pages/site-copy";
import { readSiteCopyQuietly } from "~/features/pages/site-copy.server";
import { getDb } from "~/server/db/client.server";
import type { Route } from "./+types/category-rss";

/** GET /7fs/{category}/rss.xml — one category's published posts. */
export async function loader({ params }: Route.LoaderArgs) {
  const category = parseCategory(params.category);
  if (!category)
    return Response.json({ error: `There is no such category. The categories are ${CATEGORIES.join(", ")}.` }, { status: 404 });
  if (category !== params.category) throw redirect(`${categoryPath(category)}/rss.xml`, 301);
  const db = getDb();
  const [publicUrl, posts, { siteName }, copy] = await Promise.all([
    publicSiteUrl(),
    listFeedPosts(db, category),
    getSiteSettings(),
    readSiteCopyQuietly(db),
  ]);
  return rssResponse(buildRss(publicUrl, { category, description: copy[categoryDescriptionKey(category)] }, posts, siteName));
}
