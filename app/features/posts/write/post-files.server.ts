import { eq } from "drizzle-orm";
import { z } from "zod";
import { deleteUnusedUploads } from "~/features/uploads/uploads.server";
import type { Db } from "~/server/db/client.server";
import { blogMedia, blogPosts, postAutosaves, postRevisions } from "~/server/db/schema.server";
import { getEnv } from "~/server/env.server";
import { defineJob } from "~/server/jobs/jobs.server";
import { sitePath } from "../content/content-urls";
import { markdownImages } from "./image-alt";

const MAX_URLS = 5_000;

/**
 * Deletes a deleted post's uploaded files that nothing else uses. Enqueued in the delete's
 * transaction, so the files go only once the post is really gone, and a crash before they are
 * deleted leaves the job to run again (deleteUnusedUploads is idempotent).
 */
export const deletePostFilesJob = defineJob(
  "posts.delete-files",
  z.object({ urls: z.array(z.string().max(2_000)).max(MAX_URLS) }),
  async ({ urls }, ctx) => {
    await deleteUnusedUploads(ctx.db, urls);
  },
  { maxAttempts: 10 },
);

/** Every image URL a post shows or showed: featured, gallery, Content, and its revisions and autosaves. */
async function imageUrlsOfPost(tx: Db, postId: string): Promise<string[]> {
  const [posts, media, revisions, autosaves] = await Promise.all([
    tx.select({ featured: blogPosts.featuredImageUrl, content: blogPosts.content }).from(blogPosts).where(eq(blogPosts.id, postId)),
    tx.select({ url: blogMedia.mediaUrl }).from(blogMedia).where(eq(blogMedia.postId, postId)),
    tx
      .select({ featured: postRevisions.featuredImageUrl, content: postRevisions.content })
      .from(postRevisions)
      .where(eq(postRevisions.postId, postId)),
    tx
      .select({ featured: postAutosaves.featuredImageUrl, content: postAutosaves.content })
      .from(postAutosaves)
      .where(eq(postAutosaves.postId, postId)),
  ]);
  const site = new URL(getEnv().publicUrl);
  const urls = [
    ...media.map((m) => m.url),
    ...[...posts, ...revisions, ...autosaves].flatMap((p) => [p.featured ?? "", ...markdownImages(p.content).map((img) => img.url)]),
  ]
    .filter(Boolean)
    // An absolute URL on the site itself is the same file as its /uploads/ path.
    .map((url) => sitePath(url, site));
  return [...new Set(urls)].slice(0, MAX_URLS);
}

/** In the delete's transaction, before the rows go: queue the clean-up of the post's files. */
export async function enqueuePostFilesCleanup(tx: Db, postId: string): Promise<void> {
  const urls = await imageUrlsOfPost(tx, postId);
  if (urls.length > 0) await deletePostFilesJob.enqueue(tx, { urls });
}
