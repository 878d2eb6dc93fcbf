import { data, redirect } from "react-router";
import { requireTwoFactorForStaff } from "~/features/auth/guards.server";
import { getSessionUser } from "~/features/auth/session.server";
import { CommentsSection } from "~/features/comments/comments-section";
import { postCommentsView } from "~/features/comments/comments.server";
import { ArticleNotFound, PostArticle } from "~/features/posts/read/post-article";
import { postPageView } from "~/features/posts/read/post-page.server";
import { deletePost, findMovedPost, getReadablePost } from "~/features/posts/write/posts.server";
import { categoryPath, parseCategory, postPath } from "~/lib/categories";
import { STATIC_PAGE } from "~/lib/hydration";
import { seoContext, seoMeta } from "~/lib/seo";
import { getDb } from "~/server/db/client.server";
import { errorAnswer, NotFoundError } from "~/server/errors.server";
import { readForm } from "~/server/form.server";
import { redirectWithToast } from "~/server/toast.server";
import { throwPageFailure } from "~/server/failure-reply.server";
import { PAGE_NOT_FOUND } from "~/server/pagination.server";
import type { Route } from "./+types/post";

/** Where other sites send Webmentions about a published post (W3C Webmention §3.1.2: the header, and a <link> below). */
const WEBMENTION_ENDPOINT = "/webmention";
const WEBMENTION_LINK = { Link: `<${WEBMENTION_ENDPOINT}>; rel="webmention"` };
const NOT_PUBLIC = { "X-Robots-Tag": "noindex", "Cache-Control": "private, no-store" };

/** No React for anonymous visitors (lib/hydration.ts). */
export const handle = STATIC_PAGE;

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

// Reading published posts stays open to everyone; deleting (the action) and reading a draft need 2FA
// while the site requires it of staff.
export const middleware: Route.MiddlewareFunction[] = [
  ({ request }) => (request.method === "GET" || request.method === "HEAD" ? undefined : requireTwoFactorForStaff(request, "page")),
];

export async function loader({ request, params }: Route.LoaderArgs) {
  const category = parseCategory(params.category);
  if (!category) throwPageFailure(new NotFoundError(PAGE_NOT_FOUND));
  const db = getDb();
  const user = await getSessionUser(request);
  const post = await getReadablePost(db, params.slug, user);
  if (!post) {
    const moved = await findMovedPost(db, category, params.slug, user);
    if (moved) throw redirect(postPath(moved.category, moved.slug), 301);
    return data({ found: false as const, category }, { status: 404, headers: NOT_PUBLIC });
  }
  if (!post.published) await requireTwoFactorForStaff(request, "page");
  if (post.category !== params.category) throw redirect(postPath(post.category, post.slug), 301);
  const [view, comments] = await Promise.all([postPageView(db, request, post, user), postCommentsView(db, post)]);
  // A draft (staff only) is never indexed nor stored by shared caches.
  return data(
    { ...view, jsonLd: { ...view.jsonLd, commentCount: comments.count }, comments },
    { headers: post.published ? WEBMENTION_LINK : NOT_PUBLIC },
  );
}

export async function action({ request, params }: Route.ActionArgs) {
  try {
    const user = await getSessionUser(request);
    const form = await readForm(request);
    if (form.get("intent") !== "delete") return data({ error: "Unknown action: send intent=delete to delete this post." }, { status: 400 });
    const { category } = await deletePost(getDb(), user, params.slug);
    return await redirectWithToast(categoryPath(category), { title: "Post deleted successfully", type: "success" });
  } catch (error) {
    const { status, message } = errorAnswer(error);
    return data({ error: message }, { status });
  }
}

export function meta({ data: d, matches }: Route.MetaArgs) {
  if (!d || !d.found) return [{ title: "Article Not Found" }, { name: "robots", content: "noindex" }];
  const { post, category } = d;
  return [
    ...seoMeta(seoContext(matches), {
      title: post.title,
      description: post.summary,
      path: postPath(category, post.slug),
      image: post.image,
      imageAlt: post.imageAlt,
      card: post.card,
      type: "article",
      noindex: !post.published,
      publishedTime: post.publishedAt,
      modifiedTime: post.updatedAt,
    }),
    {
      tagName: "link",
      rel: "alternate",
      type: "application/rss+xml",
      title: `${category} — 7 Fs Framework`,
      href: `${categoryPath(category)}/rss.xml`,
    },
    ...(post.published ? [{ tagName: "link", rel: "webmention", href: WEBMENTION_ENDPOINT }] : []),
    { "script:ld+json": d.jsonLd },
  ];
}

export default function PostDetail({ loaderData, actionData }: Route.ComponentProps) {
  if (!loaderData.found) return <ArticleNotFound category={loaderData.category} />;
  // A refused delete posted without JavaScript (or by another client) says why on the page itself.
  return (
    <>
      <PostArticle view={loaderData} refusal={actionData && "error" in actionData ? actionData.error : undefined} />
      {loaderData.post.published ? <CommentsSection {...loaderData.comments} /> : null}
    </>
  );
}
