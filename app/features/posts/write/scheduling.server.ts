import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { readSiteSettings } from "~/features/settings/settings.server";
import type { Db } from "~/server/db/client.server";
import { blogPosts } from "~/server/db/schema.server";
import { cancelJob, defineJob } from "~/server/jobs/jobs.server";
import { logger } from "~/server/logger.server";
import { afterPostWrite } from "./post-write.server";

/** The dedupe key of the job that publishes `postId` at `at`: one job per post and time. */
export function publishJobKey(postId: string, at: Date): string {
  return `publish:${postId}:${at.toISOString()}`;
}

/**
 * Publishes a scheduled post if it is still scheduled for exactly this time (a later edit may have
 * moved, cleared or already published it). The conditional UPDATE makes a second delivery, or a
 * second instance, a no-op; the content version bump in the same transaction refreshes every
 * instance's pages.
 */
export async function publishScheduledPost(db: Db, postId: string, at: Date): Promise<boolean> {
  const site = await readSiteSettings(db);
  const published = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(blogPosts)
      .set({
        published: true,
        publishedAt: sql`coalesce(${blogPosts.publishedAt}, ${blogPosts.scheduledAt})`,
        scheduledAt: null,
        version: sql`${blogPosts.version} + 1`,
        updatedAt: new Date(),
      })
      .where(and(eq(blogPosts.id, postId), eq(blogPosts.published, false), eq(blogPosts.scheduledAt, at)))
      .returning({
        postId: blogPosts.id,
        title: blogPosts.title,
        excerpt: blogPosts.excerpt,
        content: blogPosts.content,
        featuredImageUrl: blogPosts.featuredImageUrl,
        featuredImageAlt: blogPosts.featuredImageAlt,
        authorId: blogPosts.authorId,
        category: blogPosts.category,
      });
    if (!row) return false;
    const { category, ...revision } = row;
    await afterPostWrite(tx, {
      revision,
      before: { published: false, scheduledAt: at },
      after: { published: true, scheduledAt: null, category },
      syncSchedule: null,
      announce: { site },
      audit: null,
    });
    return true;
  });
  if (published) logger.info({ postId, at: at.toISOString() }, "scheduled post published");
  return published;
}

export const publishPostJob = defineJob(
  "posts.publish",
  z.object({ postId: z.uuid(), at: z.iso.datetime() }),
  async ({ postId, at }, ctx) => {
    await publishScheduledPost(ctx.db, postId, new Date(at));
  },
  { maxAttempts: 10 },
);

/**
 * Brings the post's publish job in line with its schedule, in the save's transaction: the old
 * time's job (if any and not started) is removed, the new time's job is enqueued.
 */
export async function syncPublishJob(tx: Db, postId: string, previous: Date | null, next: Date | null): Promise<void> {
  if (previous && previous.getTime() !== next?.getTime()) await cancelJob(tx, publishJobKey(postId, previous));
  if (next) await publishPostJob.enqueue(tx, { postId, at: next.toISOString() }, { runAt: next, key: publishJobKey(postId, next) });
}
