import { Link } from "react-router";
import { deferred } from "~/components/deferred";
import { FormErrors } from "~/components/forms";
import { ResponsiveImage } from "~/components/responsive-image";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { MediaList } from "~/features/media/media-view";
import { PostBody } from "~/features/posts/read/post-body";
import { TableOfContents } from "~/features/posts/content/table-of-contents";
import { SubscribeOffer } from "~/features/subscriptions/subscribe-offer";
import { categoryPath, postPath, type Category } from "~/lib/categories";
import type { PostLinkView, PostPageView } from "./post-page.server";

// Editors only: the confirmation dialog's code (Radix) stays out of the page's initial JavaScript.
const DeletePostButton = deferred(() => import("~/features/posts/editor/delete-post-button").then((module) => module.DeletePostButton));

/** A post address that leads nowhere (never was, or was deleted). */
export function ArticleNotFound({ category }: { category: Category }) {
  return (
    <section className="mx-auto max-w-3xl px-4 py-24 text-center">
      <h1 className="text-3xl font-bold">Article Not Found</h1>
      <p className="mt-4 text-muted-foreground">The article you're looking for doesn't exist or has been removed.</p>
      <Link to={categoryPath(category)} className="mt-6 inline-block text-primary underline">
        Back to {category}
      </Link>
    </section>
  );
}

/** The post page: header (with the staff's Edit and Delete), featured image, contents, body, media, neighbours. */
export function PostArticle({ view, refusal }: { view: PostPageView; refusal: string | undefined }) {
  const { post, category, canEditPost, canDelete, related, previous, next } = view;
  return (
    // microformats2 (h-entry, its h-card author) for other sites' Webmentions and readers; the <data>
    // elements carry values the page does not show.
    <article className="h-entry mx-auto max-w-3xl px-4 py-16">
      <data className="u-url" value={post.url} />
      <span className="p-author h-card">
        <data className="p-name" value={post.author.name} />
        <data className="u-url" value={post.author.url} />
      </span>
      <FormErrors form={{ errors: refusal ? [refusal] : undefined, errorId: "post-action-error" }} className="mb-6" />
      <Link to={categoryPath(category)} className="text-sm text-primary underline hover:no-underline">
        ← Back to {category}
      </Link>
      <header className="mt-6">
        <div className="flex flex-wrap items-center gap-2">
          <Badge variant="secondary">{category}</Badge>
          {!post.published ? <Badge variant="outline">{post.scheduled ?? "Draft"}</Badge> : null}
        </div>
        <h1 className="p-name mt-4 text-4xl font-bold tracking-tight break-words">{post.title}</h1>
        <p className="mt-3 text-muted-foreground">
          <time className="dt-published" dateTime={post.publishedAt}>
            {post.date}
          </time>{" "}
          · {post.readingTime}
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
        <ResponsiveImage
          src={post.image}
          srcSet={post.imageSrcSet}
          sizes="(min-width: 768px) 768px, 100vw"
          alt={post.imageAlt}
          // Reserves a 16:9 box before the image arrives (no layout shift); its own ratio applies once loaded.
          width={1200}
          height={675}
          priority
          className="mt-8 h-auto w-full rounded-lg object-cover"
        />
      ) : null}
      <TableOfContents entries={post.toc} />
      <div className="mt-8">
        <PostBody html={post.html} className="e-content" />
      </div>
      <MediaList items={post.media} title={post.title} />
      <AroundThePost category={category} related={related} previous={previous} next={next} />
      {post.published ? <SubscribeOffer id="subscribe-post" className="mt-12" /> : null}
    </article>
  );
}

/** "Around a post": previous/next in the category, then up to three related posts. */
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
