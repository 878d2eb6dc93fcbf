import type { SessionUser } from "~/features/auth/session.server";
import { isSafeImageUrl } from "~/features/media/media-urls";
import { aroundPost, type PostLink } from "~/features/posts/read/around-post.server";
import { longDate, shortDate } from "~/lib/dates";
import { postBodyOf } from "~/features/posts/content/post-render.server";
import { blogPostingJsonLd } from "~/features/posts/read/post-seo";
import type { PostWithMedia } from "~/features/posts/write/posts.server";
import { postSummary } from "~/features/posts/content/summary";
import { tableOfContents } from "~/features/posts/content/table-of-contents.server";
import { postShareCard, shareImageOf } from "~/features/share-images/share-images.server";
import { getSiteSettings } from "~/features/settings/settings.server";
import { publicSiteUrl } from "~/features/settings/site-url.server";
import { srcSetsFor } from "~/features/uploads/uploads.server";
import { postPath } from "~/lib/categories";
import { canDeletePost, canUpdatePost } from "~/lib/permissions";
import { readingTimeLabel } from "~/lib/reading-time";
import { scheduledLabel } from "~/features/posts/write/post-schema";
import { getEnv } from "~/server/env.server";
import type { Db } from "~/server/db/client.server";

/** A neighbouring or related post as the post page links to it. */
export interface PostLinkView {
  path: string;
  title: string;
  date: string;
  publishedAt: string;
}

function linkView(p: PostLink): PostLinkView {
  return { path: postPath(p.category, p.slug), title: p.title, date: shortDate(p.publishedAt), publishedAt: p.publishedAt.toISOString() };
}

/** Everything the post page shows of a post the reader may read: body, images, neighbours, SEO data. */
export async function postPageView(db: Db, request: Request, post: PostWithMedia, user: SessionUser | null) {
  const [srcSets, body, around, site] = await Promise.all([
    srcSetsFor(db, [post.featuredImageUrl, ...post.media.map((m) => m.mediaUrl)]),
    postBodyOf(db, post),
    aroundPost(db, post),
    getSiteSettings(),
  ]);
  const { siteName } = site;
  const publicUrl = await publicSiteUrl(request);
  const image = post.featuredImageUrl && isSafeImageUrl(post.featuredImageUrl) ? post.featuredImageUrl : null;
  // A published post without a featured image is shared with its generated card (drafts: the site's).
  const card = !image && post.published ? shareImageOf({ kind: "post", id: post.id }, postShareCard(post, site)) : null;
  return {
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
      // Staff see an unpublished post's state: when it goes live, or that it is a draft.
      scheduled: !post.published && post.scheduledAt ? scheduledLabel(post.scheduledAt, getEnv().SITE_TIME_ZONE) : null,
      image,
      imageAlt: image ? (post.featuredImageAlt ?? "") : "",
      imageSrcSet: image ? srcSets[image] : undefined,
      card,
      date: longDate(post.publishedAt),
      publishedAt: post.publishedAt.toISOString(),
      updatedAt: post.updatedAt.toISOString(),
      // For the microformats2 h-entry: its address and its author, the site (as in the JSON-LD).
      url: `${publicUrl}${postPath(post.category, post.slug)}`,
      author: { name: siteName, url: publicUrl },
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
    related: around.related.map(linkView),
    previous: around.previous ? linkView(around.previous) : null,
    next: around.next ? linkView(around.next) : null,
    canEditPost: canUpdatePost(user),
    canDelete: canDeletePost(user, post),
    // React Router's <Meta> escapes `<` in JSON-LD, so a title can never close the script element.
    jsonLd: blogPostingJsonLd(publicUrl, { ...post, content: body.text }, image ?? card?.url ?? null, siteName),
  };
}

export type PostPageView = Awaited<ReturnType<typeof postPageView>>;
