import type { FeedItem } from "~/features/feeds/feed-item";
import { getFeedService, withDeadline } from "~/features/feeds/feeds.server";
import { reachMeSlots } from "~/features/booking/reach-me.server";
import { getFeaturedArticle, getNewestPublishedPost } from "~/features/posts/read/home-posts.server";
import { getFeaturedWebProject } from "~/features/projects/projects.server";
import { readPageContent } from "~/features/pages/page-content.server";
import { readSiteCopyQuietly } from "~/features/pages/site-copy.server";
import { getSiteSettings } from "~/features/settings/settings.server";
import { srcSetsFor } from "~/features/uploads/uploads.server";
import { categoryPath, postPath } from "~/lib/categories";
import { getDb } from "~/server/db/client.server";
import { getEnv } from "~/server/env.server";
import { logger } from "~/server/logger.server";

/** Database reads fail silently to an empty card (SPEC §8 "silent failures"), logged. */
function quietly<T>(what: string, promise: Promise<T>): Promise<T | null> {
  return promise.catch((err: unknown) => {
    logger.error({ err, what }, "home page read failed");
    return null;
  });
}

/** The home page's data: the settings' texts, what it features, and the feeds (a promise: the page streams). */
export async function homePageView() {
  const db = getDb();
  const site = await getSiteSettings();
  const feeds = getFeedService(site);
  // Feeds are not awaited: the page streams and they arrive when ready, never later than the deadline.
  const deadline = getEnv().FEED_TIMEOUT_MS + 250;
  const externalPosts: Promise<Array<{ kind: "newsletter" | "blog" | "kb"; item: FeedItem | null }>> = Promise.all([
    withDeadline(feeds.fetchSubstack(), deadline).then((item) => ({ kind: "newsletter" as const, item })),
    withDeadline(feeds.fetchTspBlog(), deadline).then((item) => ({ kind: "blog" as const, item })),
    withDeadline(feeds.fetchTspKb(), deadline).then((item) => ({ kind: "kb" as const, item })),
  ]);
  const [article, newest, project, portraitSrcSets, pageContent, booking, copy] = await Promise.all([
    quietly("featured article", getFeaturedArticle(db)),
    quietly("newest post", getNewestPublishedPost(db)),
    quietly("featured project", getFeaturedWebProject(db)),
    quietly("portrait variants", srcSetsFor(db, [site.portraitUrl])),
    quietly("page content", readPageContent(db)),
    site.bookingMode === "built-in" ? quietly("booking slots", reachMeSlots(db)) : null,
    readSiteCopyQuietly(db),
  ]);
  return {
    headline: site.headline,
    tagline: site.tagline,
    bio: site.bio,
    ownerName: site.ownerName,
    portrait: { url: site.portraitUrl, srcSet: portraitSrcSets?.[site.portraitUrl] },
    schedulingUrl: site.schedulingUrl,
    heroGreeting: pageContent?.heroGreeting ?? "",
    copy,
    bookingMode: site.bookingMode,
    booking,
    certifications: pageContent?.certifications ?? [],
    expertise: pageContent?.expertise ?? [],
    feedsConfigured: Boolean(site.substackUrl || site.tspBlogUrl || site.tspKbUrl),
    article: article
      ? {
          title: article.title,
          excerpt: article.excerpt,
          image: article.featuredImageUrl,
          imageAlt: article.featuredImageAlt ?? "",
          href: postPath(article.category, article.slug),
          category: article.category,
        }
      : null,
    teaserHref: newest ? postPath(newest.category, newest.slug) : categoryPath("Faith"),
    project,
    externalPosts,
  };
}

export type HomePageView = Awaited<ReturnType<typeof homePageView>>;
