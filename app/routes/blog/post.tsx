import { data, Link, redirect } from "react-router";
import { deferred } from "~/components/deferred";
import { FormErrors } from "~/components/forms";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { getSessionUser } from "~/features/auth/session.server";
import { MediaList } from "~/features/media/media-view";
import { isSafeImageUrl } from "~/features/media/media-urls";
import { longDate, shortDate } from "~/features/posts/read/dates";
import { PostBody } from "~/features/posts/read/post-body";
import { postBodyOf } from "~/features/posts/content/post-render.server";
import { aroundPost, type PostLink } from "~/features/posts/read/around-post.server";
import { blogPostingJsonLd } from "~/features/posts/read/post-seo";
import { getSiteSettings } from "~/features/settings/settings.server";
import { postShareCard, shareImageOf } from "~/features/share-images/share-images.server";
import { tableOfContents } from "~/features/posts/content/table-of-contents.server";
import { TableOfContents } from "~/features/posts/content/table-of-contents";
import { publicSiteUrl } from "~/features/settings/site-url.server";
import { postSummary } from "~/features/posts/content/summary";
import { deletePost, findMovedPost, getReadablePost } from "~/features/posts/write/posts.server";
import { srcSetsFor } from "~/features/uploads/uploads.server";
import { categoryPath, parseCategory, postPath, type Category } from "~/lib/categories";
import { canDeletePost, canUpdatePost } from "~/lib/permissions";
import { readingTimeLabel } from "~/lib/reading-time";
import { seoContext, seoMeta } from "~/lib/seo";
import { getDb } from "~/server/db/client.server";
import { errorAnswer } from "~/server/errors.server";
import { readForm } from "~/server/form.server";
import { redirectWithToast } from "~/server/toast.server";
import type { Route } from "./+types/post";

// Editors only: the confirmation dialog's code (Radix) stays out of the page's initial JavaScript.
const DeletePostButton = deferred(() => import("~/features/posts/editor/delete-post-button").then((module) => module.DeletePostButton));
import { SubscribeForm } from "~/features/subscriptions/subscribe-form-deferred";
import { requireTwoFactorForStaffPage } from "~/features/admin/two-factor-guard.server";
import { STATIC_PAGE } from "~/lib/hydration";

const NOT_PUBLIC = { "X-Robots-Tag": "noindex", "Cache-Control": "private, no-store" };

/** Issue 14: no React for anonymous visitors (lib/hydration.ts). */
export const handle = STATIC_PAGE;

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

// Reading stays open to everyone; deleting (the action) needs 2FA while the site requires it of staff (issue 15).
export const middleware: Route.MiddlewareFunction[] = [
  ({ request }) => (request.method === "GET" || request.method === "HEAD" ? undefined : requireTwoFactorForStaffPage(request)),
];

export async function loader({ request, params }: Route.LoaderArgs) {
  const category = parseCategory(params.category);
  if (!category) throw data("Oops! Page not found", { status: 404 });
  const db = getDb();
  const user = await getSessionUser(request);
  const post = await getReadablePost(db, params.slug, user);
  if (!post) {
    const moved = await findMovedPost(db, category, params.slug, user);
    if (moved) throw redirect(postPath(moved.category, moved.slug), 301);
    return data({ found: false as const, category }, { status: 404, headers: NOT_PUBLIC });
  }
  if (post.category !== params.category) throw redirect(postPath(post.category, post.slug), 301);
  const [srcSets, body, around, { siteName }] = await Promise.all([
    srcSetsFor(db, [post.featuredImageUrl, ...post.media.map((m) => m.mediaUrl)]),
    postBodyOf(db, post),
    aroundPost(db, post),
    getSiteSettings(),
  ]);
  const toLink = (p: PostLink) => ({
    path: postPath(p.category, p.slug),
    title: p.title,
    date: shortDate(p.publishedAt),
    publishedAt: p.publishedAt.toISOString(),
  });
  const publicUrl = await publicSiteUrl(request);
  const image = post.featuredImageUrl && isSafeImageUrl(post.featuredImageUrl) ? post.featuredImageUrl : null;
  // A published post without a featured image is shared with its generated card (drafts: the site's).
  const card = !image && post.published ? shareImageOf({ kind: "post", id: post.id }, postShareCard(post, siteName)) : null;
  return data(
    {
      found: true as const,
      category: post.category,
      post: {
        title: post.title,
        slug: post.slug,
        html: body.html,
        toc: tableOfContents(body.html),
        summary: postSummary({ excerpt: post.excerpt, content: body.text }),
        excerpt: post.excerpt,
        published: post.published,
        image,
        imageAlt: image ? (post.featuredImageAlt ?? "") : "",
        imageSrcSet: image ? srcSets[image] : undefined,
        card,
        date: longDate(post.publishedAt),
        publishedAt: post.publishedAt.toISOString(),
        updatedAt: post.updatedAt.toISOString(),
        readingTime: readingTimeLabel(body.text),
        // The featured image is shown above the post: never again in its gallery.
        media: post.media
          .filter((m) => !(m.mediaType === "image" && m.mediaUrl === post.featuredImageUrl))
          .map((m) => ({
            id: m.id,
            mediaType: m.mediaType,
            mediaUrl: m.mediaUrl,
            caption: m.caption,
            alt: m.alt,
            srcSet: srcSets[m.mediaUrl],
          })),
      },
      related: around.related.map(toLink),
      previous: around.previous ? toLink(around.previous) : null,
      next: around.next ? toLink(around.next) : null,
      canEditPost: canUpdatePost(user),
      canDelete: canDeletePost(user, post),
      // React Router's <Meta> escapes `<` in JSON-LD, so a title can never close the script element.
      jsonLd: blogPostingJsonLd(publicUrl, { ...post, content: body.text }, image ?? card?.url ?? null, siteName),
    },
    // A draft (staff only) is never indexed nor stored by shared caches.
    { headers: post.published ? {} : NOT_PUBLIC },
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
    { "script:ld+json": d.jsonLd },
  ];
}

interface PostLinkView {
  path: string;
  title: string;
  date: string;
  publishedAt: string;
}

/** Issue 18 "Around a post": previous/next in the category, then up to three related posts. */
function AroundThePost({
  category,
  related,
  previous,
  next,
}: {
  category: Category;
  related: PostLinkView[];
  previous: PostLinkView | null;
  next: PostLinkView | null;
}) {
  return (
    <footer className="mt-16 border-t pt-10">
      {previous || next ? (
        <nav aria-label={`More in ${category}`} className="grid gap-4 sm:grid-cols-2">
          {previous ? (
            <Link
              rel="prev"
              to={previous.path}
              className="rounded-lg border p-4 hover:border-primary focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
            >
              <span className="block text-sm text-muted-foreground">← Previous post</span>
              <span className="mt-1 block font-medium break-words">{previous.title}</span>
            </Link>
          ) : (
            <span aria-hidden className="hidden sm:block" />
          )}
          {next ? (
            <Link
              rel="next"
              to={next.path}
              className="rounded-lg border p-4 text-right hover:border-primary focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
            >
              <span className="block text-sm text-muted-foreground">Next post →</span>
              <span className="mt-1 block font-medium break-words">{next.title}</span>
            </Link>
          ) : null}
        </nav>
      ) : null}
      {related.length > 0 ? (
        <section aria-labelledby="related-posts" className="mt-10">
          <h2 id="related-posts" className="text-2xl font-semibold">
            Related posts
          </h2>
          <ul className="mt-4 grid gap-4 sm:grid-cols-3">
            {related.map((item) => (
              <li key={item.path}>
                <Link
                  to={item.path}
                  className="block h-full rounded-lg border bg-card p-4 hover:border-primary focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
                >
                  <time dateTime={item.publishedAt} className="block text-sm text-muted-foreground">
                    {item.date}
                  </time>
                  <span className="mt-1 block font-medium break-words">{item.title}</span>
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </footer>
  );
}

export default function PostDetail({ loaderData, actionData }: Route.ComponentProps) {
  if (!loaderData.found) {
    return (
      <section className="mx-auto max-w-3xl px-4 py-24 text-center">
        <h1 className="text-3xl font-bold">Article Not Found</h1>
        <p className="mt-4 text-muted-foreground">The article you're looking for doesn't exist or has been removed.</p>
        <Link to={categoryPath(loaderData.category)} className="mt-6 inline-block text-primary underline">
          Back to {loaderData.category}
        </Link>
      </section>
    );
  }
  const { post, category, canEditPost, canDelete, related, previous, next } = loaderData;
  // A refused delete posted without JavaScript (or by another client) says why on the page itself.
  const refusal = actionData && "error" in actionData ? actionData.error : undefined;
  return (
    <article className="mx-auto max-w-3xl px-4 py-16">
      <FormErrors form={{ errors: refusal ? [refusal] : undefined, errorId: "post-action-error" }} className="mb-6" />
      <Link to={categoryPath(category)} className="text-sm text-primary underline hover:no-underline">
        ← Back to {category}
      </Link>
      <header className="mt-6">
        <div className="flex flex-wrap items-center gap-2">
          <Badge variant="secondary">{category}</Badge>
          {!post.published ? <Badge variant="outline">Draft</Badge> : null}
        </div>
        <h1 className="mt-4 text-4xl font-bold tracking-tight break-words">{post.title}</h1>
        <p className="mt-3 text-muted-foreground">
          <time dateTime={post.publishedAt}>{post.date}</time> · {post.readingTime}
        </p>
        {canEditPost || canDelete ? (
          <div className="mt-6 flex gap-3">
            {canEditPost ? (
              <Button asChild variant="outline">
                <Link to={`${postPath(category, post.slug)}/edit`}>Edit</Link>
              </Button>
            ) : null}
            {canDelete ? <DeletePostButton /> : null}
          </div>
        ) : null}
      </header>
      {post.image ? (
        <img
          src={post.image}
          srcSet={post.imageSrcSet}
          sizes={post.imageSrcSet ? "(min-width: 768px) 768px, 100vw" : undefined}
          alt={post.imageAlt}
          // Reserves a 16:9 box before the image arrives (no layout shift); its own ratio applies once loaded.
          width={1200}
          height={675}
          fetchPriority="high"
          className="mt-8 h-auto w-full rounded-lg object-cover"
        />
      ) : null}
      <TableOfContents entries={post.toc} />
      <div className="mt-8">
        <PostBody html={post.html} />
      </div>
      <MediaList items={post.media} title={post.title} />
      <AroundThePost category={category} related={related} previous={previous} next={next} />
      {post.published ? <SubscribeForm id="subscribe-post" className="mt-12" /> : null}
    </article>
  );
}
