import type { SessionUser } from "~/features/auth/session.server";
import { isSafeImageUrl } from "~/features/media/media-urls";
import { shortDate } from "~/lib/dates";
import { listPublishedPosts } from "~/features/posts/write/posts.server";
import { categoryShareCard, shareImageOf } from "~/features/share-images/share-images.server";
import { getSiteSettings } from "~/features/settings/settings.server";
import { shownAlt } from "~/features/uploads/media-library";
import { uploadedImagesFor } from "~/features/uploads/uploads.server";
import { type Category } from "~/lib/categories";
import { categoryDescriptionKey } from "~/features/pages/site-copy";
import { readSiteCopyQuietly } from "~/features/pages/site-copy.server";
import { canCreatePost } from "~/lib/permissions";
import type { Db } from "~/server/db/client.server";

/** One page of a category's published posts as its listing shows them (a page past the last is a NotFoundError). */
export async function categoryPageView(db: Db, user: SessionUser | null, category: Category, page: number) {
  const [listing, site, copy] = await Promise.all([listPublishedPosts(db, category, page), getSiteSettings(), readSiteCopyQuietly(db)]);
  const uploaded = await uploadedImagesFor(
    db,
    listing.posts.map((p) => p.featuredImageUrl),
  );
  return {
    category,
    description: copy[categoryDescriptionKey(category)],
    posts: listing.posts.map((p) => ({
      id: p.id,
      slug: p.slug,
      title: p.title,
      excerpt: p.excerpt,
      date: shortDate(p.publishedAt),
      image: p.featuredImageUrl && isSafeImageUrl(p.featuredImageUrl) ? p.featuredImageUrl : null,
      srcSet: p.featuredImageUrl ? uploaded[p.featuredImageUrl]?.srcSet : undefined,
      imageAlt: shownAlt(p.featuredImageUrl ? uploaded[p.featuredImageUrl]?.alt : undefined, p.featuredImageAlt),
    })),
    page: listing.page,
    pageCount: listing.pageCount,
    canCreate: canCreatePost(user),
    card: shareImageOf({ kind: "category", category }, categoryShareCard(category, site)),
  };
}

export type CategoryPageView = Awaited<ReturnType<typeof categoryPageView>>;
