import { z } from "zod";
import type { Db } from "~/server/db/client.server";
import { cancelJob, enqueueJob } from "~/server/jobs/jobs.server";

/**
 * A scheduled post's publish job, as the saves see it: its kind, payload and key. The job's handler
 * (scheduling.server.ts) publishes through the post-write step, which itself keeps the job in line
 * with the schedule; the two meet here so neither module imports the other.
 */
export const PUBLISH_JOB_KIND = "posts.publish";

export const publishJobPayload = z.object({ postId: z.uuid(), at: z.iso.datetime() });

/** The dedupe key of the job that publishes `postId` at `at`: one job per post and time. */
export function publishJobKey(postId: string, at: Date): string {
  return `publish:${postId}:${at.toISOString()}`;
}

/**
 * Brings the post's publish job in line with its schedule, in the save's transaction: the old
 * time's job (if any and not started) is removed, the new time's job is enqueued.
 */
export async function syncPublishJob(tx: Db, postId: string, previous: Date | null, next: Date | null): Promise<void> {
  if (previous && previous.getTime() !== next?.getTime()) await cancelJob(tx, publishJobKey(postId, previous));
  if (next) {
    const payload: z.input<typeof publishJobPayload> = { postId, at: next.toISOString() };
    await enqueueJob(tx, { kind: PUBLISH_JOB_KIND, payload, runAt: next, key: publishJobKey(postId, next) });
  }
}
