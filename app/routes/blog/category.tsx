import { data, Link, redirect } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { getSessionUser } from "~/features/auth/session.server";
import { shortDate } from "~/features/posts/read/dates";
import { listPublishedPosts } from "~/features/posts/write/posts.server";
import { srcSetsFor } from "~/features/uploads/uploads.server";
import { isSafeImageUrl } from "~/features/media/media-urls";
import { categoryShareCard, shareImageOf } from "~/features/share-images/share-images.server";
import { getSiteSettings } from "~/features/settings/settings.server";
import { CATEGORY_DESCRIPTIONS, categoryPath, parseCategory, postPath } from "~/lib/categories";
import { canCreatePost } from "~/lib/permissions";
import { seoContext, seoMeta } from "~/lib/seo";
import { getDb } from "~/server/db/client.server";
import { withRouteErrors } from "~/server/errors.server";
import { pageParam } from "~/server/pagination.server";
import type { Route } from "./+types/category";
import { SubscribeForm } from "~/features/subscriptions/subscribe-form-deferred";
import { STATIC_PAGE } from "~/lib/hydration";

/** Issue 14: no React for anonymous visitors (lib/hydration.ts). */
export const handle = STATIC_PAGE;

export async function loader({ request, params }: Route.LoaderArgs) {
  const category = parseCategory(params.category);
  if (!category) throw data("Oops! Page not found", { status: 404 });
  const url = new URL(request.url);
  if (category !== params.category) throw redirect(`${categoryPath(category)}${url.search}`, 301);
  const page = pageParam(request);
  const db = getDb();
  const [user, listing, { siteName }] = await Promise.all([
    getSessionUser(request),
    withRouteErrors(() => listPublishedPosts(db, category, page)),
    getSiteSettings(),
  ]);
  const srcSets = await srcSetsFor(
    db,
    listing.posts.map((p) => p.featuredImageUrl),
  );
  return {
    category,
    description: CATEGORY_DESCRIPTIONS[category],
    posts: listing.posts.map((p) => ({
      slug: p.slug,
      title: p.title,
      excerpt: p.excerpt,
      date: shortDate(p.publishedAt),
      image: p.featuredImageUrl && isSafeImageUrl(p.featuredImageUrl) ? p.featuredImageUrl : null,
      srcSet: p.featuredImageUrl ? srcSets[p.featuredImageUrl] : undefined,
      imageAlt: p.featuredImageAlt ?? "",
    })),
    page: listing.page,
    pageCount: listing.pageCount,
    canCreate: canCreatePost(user),
    card: shareImageOf({ kind: "category", category }, categoryShareCard(category, siteName)),
  };
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
  const { category, description, posts, page, pageCount, canCreate } = loaderData;
  return (
    <section className="mx-auto max-w-6xl px-4 py-16">
      <div className="mb-12 text-center">
        <Badge variant="secondary" className="mb-4">
          7 Fs Framework
        </Badge>
        <h1 className="text-4xl font-bold tracking-tight">{category}</h1>
        <p className="mx-auto mt-4 max-w-2xl text-lg text-muted-foreground">{description}</p>
        {canCreate ? (
          <Button asChild className="mt-6">
            <Link to={`${categoryPath(category)}/new`}>Create New Post</Link>
          </Button>
        ) : null}
      </div>
      {posts.length === 0 ? (
        <div className="rounded-lg border bg-card py-16 text-center">
          <h2 className="text-2xl font-semibold">No posts yet</h2>
          <p className="mt-2 text-muted-foreground">Be the first to share your thoughts in this category!</p>
          {canCreate ? (
            <Button asChild className="mt-6">
              <Link to={`${categoryPath(category)}/new`}>Create First Post</Link>
            </Button>
          ) : null}
        </div>
      ) : (
        <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {posts.map((post, index) => (
            <li key={post.slug}>
              <Link
                to={postPath(category, post.slug)}
                className="group block h-full overflow-hidden rounded-lg border bg-card transition-shadow hover:shadow-lg focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
              >
                {post.image ? (
                  <img
                    src={post.image}
                    srcSet={post.srcSet}
                    sizes={post.srcSet ? "(min-width: 1024px) 384px, (min-width: 640px) 50vw, 100vw" : undefined}
                    alt={post.imageAlt}
                    width={800}
                    height={450}
                    // The first card's image is the largest thing on a phone's first screen: fetch it at once.
                    loading={index === 0 ? "eager" : "lazy"}
                    fetchPriority={index === 0 ? "high" : undefined}
                    decoding="async"
                    className="aspect-video w-full object-cover"
                  />
                ) : null}
                <div className="p-5">
                  <p className="text-sm text-muted-foreground">{post.date}</p>
                  <h2 className="mt-2 text-xl font-semibold group-hover:text-primary">{post.title}</h2>
                  <p className="mt-2 line-clamp-3 text-muted-foreground">{post.excerpt || "Click to read more about this article..."}</p>
                </div>
              </Link>
            </li>
          ))}
        </ul>
      )}
      {pageCount > 1 ? (
        <nav aria-label="Pagination" className="mt-10 flex items-center justify-center gap-4">
          {page > 1 ? (
            <Link
              rel="prev"
              to={page === 2 ? categoryPath(category) : `${categoryPath(category)}?page=${page - 1}`}
              className="text-primary underline"
            >
              Newer posts
            </Link>
          ) : null}
          <span className="text-sm text-muted-foreground">{`Page ${page} of ${pageCount}`}</span>
          {page < pageCount ? (
            <Link rel="next" to={`${categoryPath(category)}?page=${page + 1}`} className="text-primary underline">
              Older posts
            </Link>
          ) : null}
        </nav>
      ) : null}
      <SubscribeForm id="subscribe-category" className="mt-12 max-w-2xl" />
    </section>
  );
}
