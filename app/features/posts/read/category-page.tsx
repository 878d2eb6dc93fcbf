import { Link } from "react-router";
import { Pager } from "~/components/pager";
import { ResponsiveImage } from "~/components/responsive-image";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { SubscribeOffer } from "~/features/subscriptions/subscribe-offer";
import { categoryPath, postPath } from "~/lib/categories";
import type { CategoryPageView } from "./category-page.server";

/** A category's listing: its description, the post cards (with their approved comments), the pager and the subscribe form. */
export function CategoryPage({ view, commentCounts }: { view: CategoryPageView; commentCounts: Record<string, number> }) {
  const { category, description, posts, page, pageCount, canCreate } = view;
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
                  <ResponsiveImage
                    src={post.image}
                    srcSet={post.srcSet}
                    sizes="(min-width: 1024px) 384px, (min-width: 640px) 50vw, 100vw"
                    alt={post.imageAlt}
                    width={800}
                    height={450}
                    // The first card's image is the largest thing on a phone's first screen: fetch it at once.
                    priority={index === 0}
                    className="aspect-video w-full object-cover"
                  />
                ) : null}
                <div className="p-5">
                  <p className="text-sm text-muted-foreground">
                    {post.date}
                    {commentCounts[post.id]
                      ? ` · ${commentCounts[post.id]} ${commentCounts[post.id] === 1 ? "comment" : "comments"}`
                      : null}
                  </p>
                  <h2 className="mt-2 text-xl font-semibold group-hover:text-primary">{post.title}</h2>
                  <p className="mt-2 line-clamp-3 text-muted-foreground">{post.excerpt || "Click to read more about this article..."}</p>
                </div>
              </Link>
            </li>
          ))}
        </ul>
      )}
      <Pager
        label="Pagination"
        page={page}
        pageCount={pageCount}
        href={(n) => (n > 1 ? `${categoryPath(category)}?page=${n}` : categoryPath(category))}
        prevLabel="Newer posts"
        nextLabel="Older posts"
        variant="public"
        statusAsOneText
      />
      <SubscribeOffer id="subscribe-category" className="mt-12 max-w-2xl" />
    </section>
  );
}
