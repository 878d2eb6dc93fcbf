import { and, eq, sql } from "drizzle-orm";
import { readSiteSettings } from "~/features/settings/settings.server";
import type { Db } from "~/server/db/client.server";
import { blogPosts } from "~/server/db/schema.server";
import { defineJob } from "~/server/jobs/jobs.server";
import { logger } from "~/server/logger.server";
import { afterPostWrite } from "./post-write.server";
import { PUBLISH_JOB_KIND, publishJobPayload } from "./publish-schedule.server";

/**
 * Publishes a scheduled post if it is still scheduled for exactly this time (a later edit may have
 * moved, cleared or already published it). The conditional UPDATE makes a second delivery, or a
 * second instance, a no-op; the content version bump in the same transaction refreshes every
 * instance's pages.
 */
export async function publishScheduledPost(db: Db, postId: string, at: Date): Promise<boolean> {
  const { siteName } = await readSiteSettings(db);
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
      syncSchedule: false,
      announce: { siteName },
      audit: null,
    });
    return true;
  });
  if (published) logger.info({ postId, at: at.toISOString() }, "scheduled post published");
  return published;
}

export const publishPostJob = defineJob(
  PUBLISH_JOB_KIND,
  publishJobPayload,
  async ({ postId, at }, ctx) => {
    await publishScheduledPost(ctx.db, postId, new Date(at));
  },
  { maxAttempts: 10 },
);
