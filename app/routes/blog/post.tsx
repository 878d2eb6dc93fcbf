import { useEffect, useState } from "react";
import { data, Link, redirect, useFetcher } from "react-router";
import { toast } from "sonner";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "~/components/ui/alert-dialog";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { getSessionUser } from "~/features/auth/session.server";
import { MediaList } from "~/features/media/media-view";
import { isSafeImageUrl } from "~/features/media/media";
import { longDate } from "~/features/posts/dates";
import { PostContent } from "~/features/posts/post-content";
import { blogPostingJsonLd } from "~/features/posts/post-seo";
import { postSummary } from "~/features/posts/summary";
import { deletePost, getReadablePost } from "~/features/posts/posts.server";
import { srcSetsFor } from "~/features/uploads/uploads.server";
import { categoryPath, parseCategory, postPath } from "~/lib/categories";
import { canDeletePost, canUpdatePost } from "~/lib/permissions";
import { readingTimeLabel } from "~/lib/reading-time";
import { DEFAULT_OG_IMAGE, publicUrlFromMatches, seoMeta } from "~/lib/seo";
import { getDb } from "~/server/db/client.server";
import { errorAnswer } from "~/server/errors.server";
import { readForm } from "~/server/form.server";
import { getEnv } from "~/server/env.server";
import { redirectWithToast } from "~/server/toast.server";
import type { Route } from "./+types/post";

const NOT_PUBLIC = { "X-Robots-Tag": "noindex", "Cache-Control": "private, no-store" };

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const category = parseCategory(params.category);
  if (!category) throw data("Oops! Page not found", { status: 404 });
  const db = getDb();
  const user = await getSessionUser(request);
  const post = await getReadablePost(db, params.slug, user);
  if (!post) return data({ found: false as const, category }, { status: 404, headers: NOT_PUBLIC });
  if (post.category !== params.category) throw redirect(postPath(post.category, post.slug), 301);
  const srcSets = await srcSetsFor(db, [post.featuredImageUrl, ...post.media.map((m) => m.mediaUrl)]);
  const publicUrl = getEnv().publicUrl;
  const image = post.featuredImageUrl && isSafeImageUrl(post.featuredImageUrl) ? post.featuredImageUrl : null;
  return data(
    {
      found: true as const,
      category: post.category,
      post: {
        title: post.title,
        slug: post.slug,
        content: post.content,
        excerpt: post.excerpt,
        published: post.published,
        image,
        imageSrcSet: image ? srcSets[image] : undefined,
        date: longDate(post.createdAt),
        createdAt: post.createdAt.toISOString(),
        updatedAt: post.updatedAt.toISOString(),
        readingTime: readingTimeLabel(post.content),
        media: post.media.map((m) => ({ id: m.id, mediaType: m.mediaType, mediaUrl: m.mediaUrl, caption: m.caption, srcSet: srcSets[m.mediaUrl] })),
      },
      canEditPost: canUpdatePost(user),
      canDelete: canDeletePost(user, post),
      // React Router's <Meta> escapes `<` in JSON-LD, so a title can never close the script element.
      jsonLd: blogPostingJsonLd(publicUrl, post, image),
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
    ...seoMeta(publicUrlFromMatches(matches), {
      title: post.title,
      description: postSummary(post),
      path: postPath(category, post.slug),
      // A post without a featured image still gets a card image (the site default).
      image: post.image ?? DEFAULT_OG_IMAGE,
      type: "article",
      noindex: !post.published,
      publishedTime: post.createdAt,
      modifiedTime: post.updatedAt,
    }),
    { tagName: "link", rel: "alternate", type: "application/rss+xml", title: `${category} — 7 Fs Framework`, href: `${categoryPath(category)}/rss.xml` },
    { "script:ld+json": d.jsonLd },
  ];
}

function DeletePostButton() {
  const fetcher = useFetcher<{ error: string }>();
  const [open, setOpen] = useState(false);
  const busy = fetcher.state !== "idle";
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.error) {
      toast.error("Error", { description: "Failed to delete post" });
      setOpen(false);
    }
  }, [fetcher.state, fetcher.data]);
  return (
    <AlertDialog open={open} onOpenChange={setOpen}>
      <AlertDialogTrigger asChild>
        <Button variant="destructive">Delete</Button>
      </AlertDialogTrigger>
      <AlertDialogContent onEscapeKeyDown={(e) => busy && e.preventDefault()}>
        <AlertDialogHeader>
          <AlertDialogTitle>Delete this post?</AlertDialogTitle>
          <AlertDialogDescription>This permanently deletes the post and its media. This cannot be undone.</AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={busy}>Cancel</AlertDialogCancel>
          <AlertDialogAction
            disabled={busy}
            className="bg-destructive text-white hover:bg-destructive/90"
            onClick={(e) => {
              e.preventDefault();
              void fetcher.submit({ intent: "delete" }, { method: "post" });
            }}
          >
            {busy ? "Deleting..." : "Delete"}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

export default function PostDetail({ loaderData }: Route.ComponentProps) {
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
  const { post, category, canEditPost, canDelete } = loaderData;
  return (
    <article className="mx-auto max-w-3xl px-4 py-16">
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
          <time dateTime={post.createdAt}>{post.date}</time> · {post.readingTime}
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
          alt=""
          // Reserves a 16:9 box before the image arrives (no layout shift); its own ratio applies once loaded.
          width={1200}
          height={675}
          fetchPriority="high"
          className="mt-8 h-auto w-full rounded-lg object-cover"
        />
      ) : null}
      <div className="mt-8">
        <PostContent content={post.content} />
      </div>
      <MediaList items={post.media} title={post.title} />
    </article>
  );
}
