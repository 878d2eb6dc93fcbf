import { formatDistanceToNow } from "date-fns";
import type { AdminFilter, AdminPosition } from "~/features/posts/write/admin-filters";
import { listAdminPosts, type AdminNarrowing } from "~/features/posts/write/posts.server";
import { canDeletePost, type Actor } from "~/lib/permissions";
import { formatInZone } from "~/lib/time-zone";
import type { Db } from "~/server/db/client.server";
import { getEnv } from "~/server/env.server";

/** One page of the admin's post list (/admin/blog) with the filter's counts and its neighbours' cursors; dates as the list shows them. */
export async function adminPostsView(db: Db, actor: Actor, filter: AdminFilter, position: AdminPosition, narrow: AdminNarrowing = {}) {
  const result = await listAdminPosts(db, filter, position, narrow);
  const now = new Date();
  const timeZone = getEnv().SITE_TIME_ZONE;
  return {
    filter,
    title: narrow.title ?? "",
    category: narrow.category ?? null,
    sort: narrow.sort ?? "updated",
    counts: result.counts,
    prevCursor: result.prevCursor,
    nextCursor: result.nextCursor,
    posts: result.posts.map((p) => ({
      id: p.id,
      title: p.title,
      category: p.category,
      slug: p.slug,
      published: p.published,
      // Whether this user's Delete is offered; the action decides again (canDeletePost) for each post.
      canDelete: canDeletePost(actor, p),
      scheduledFor: p.scheduledAt && !p.published ? formatInZone(p.scheduledAt, timeZone) : null,
      scheduledAt: p.scheduledAt?.toISOString() ?? null,
      // Computed on the server so the page and its hydration agree.
      updated: `${formatDistanceToNow(p.updatedAt > now ? now : p.updatedAt)} ago`,
      updatedAt: p.updatedAt.toISOString(),
    })),
  };
}

export type AdminPostsView = Awaited<ReturnType<typeof adminPostsView>>;
