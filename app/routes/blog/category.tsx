import { redirect } from "react-router";
import { getSessionUser } from "~/features/auth/session.server";
import { approvedCommentCounts } from "~/features/comments/comments.server";
import { categoryPath, parseCategory } from "~/lib/categories";
import { seoContext, seoMeta } from "~/lib/seo";
import { getDb } from "~/server/db/client.server";
import { withPageFailures, throwPageFailure } from "~/server/failure-reply.server";
import { pageParam, PAGE_NOT_FOUND } from "~/server/pagination.server";
import { NotFoundError } from "~/server/errors.server";
import { categoryPageView } from "~/features/posts/read/category-page.server";
import { CategoryPage } from "~/features/posts/read/category-page";
import type { Route } from "./+types/category";
import { STATIC_PAGE } from "~/lib/hydration";

/** No React for anonymous visitors (lib/hydration.ts). */
export const handle = STATIC_PAGE;

export async function loader({ request, params }: Route.LoaderArgs) {
  const category = parseCategory(params.category);
  if (!category) throwPageFailure(new NotFoundError(PAGE_NOT_FOUND));
  const url = new URL(request.url);
  if (category !== params.category) throw redirect(`${categoryPath(category)}${url.search}`, 301);
  const db = getDb();
  const user = await getSessionUser(request);
  const view = await withPageFailures(() => categoryPageView(db, user, category, pageParam(request)));
  const counts = await approvedCommentCounts(
    db,
    view.posts.map((post) => post.id),
  );
  return { ...view, commentCounts: Object.fromEntries(counts) };
}

export function meta({ data: d, matches }: Route.MetaArgs) {
  if (!d) return [{ title: "Page not found" }, { name: "robots", content: "noindex" }];
  const path = d.page > 1 ? `${categoryPath(d.category)}?page=${d.page}` : categoryPath(d.category);
  return [
    ...seoMeta(seoContext(matches), { title: `${d.category} — 7 Fs Framework`, description: d.description, path, card: d.card }),
    {
      tagName: "link",
      rel: "alternate",
      type: "application/rss+xml",
      title: `${d.category} — 7 Fs Framework`,
      href: `${categoryPath(d.category)}/rss.xml`,
    },
  ];
}

export default function CategoryListing({ loaderData }: Route.ComponentProps) {
  return <CategoryPage view={loaderData} commentCounts={loaderData.commentCounts} />;
}
