import { and, isNull, lt } from "drizzle-orm";
import type { Db } from "./db/client.server";
import { commentAuthors, rateLimits, session, signInChallenges, usedVerificationTokens, verification } from "./db/schema.server";
import { pruneFinishedJobs } from "./jobs/jobs.server";
import { pruneMailLog } from "./mail-outbox.server";
import { defineRecurringTask } from "./jobs/recurring.server";
import { logger } from "./logger.server";

/** Finished jobs are kept this long for inspection (and their dedupe keys stay taken). */
export const FINISHED_JOB_RETENTION_MS = 7 * 24 * 60 * 60_000;
/** The mail log keeps settled emails this long. */
export const MAIL_LOG_RETENTION_MS = 30 * 24 * 60 * 60_000;
const HOUSEKEEPING_INTERVAL_MS = 60 * 60_000;

export interface HousekeepingResult {
  sessions: number;
  rateLimits: number;
  verifications: number;
  usedVerificationTokens: number;
  signInChallenges: number;
  commentConfirmations: number;
  jobs: number;
  mail: number;
}

/**
 * Deletes rows that can no longer matter: expired sessions, rate-limit windows that have ended,
 * expired verification rows (reset links), used human-verification tokens past their expiry, pending
 * two-factor sign-ins past theirs, commenters' email-confirmation links past theirs, finished jobs
 * and settled emails past their retention.
 */
export async function housekeep(db: Db, now = new Date()): Promise<HousekeepingResult> {
  const count = async (rows: Promise<unknown[]>) => (await rows).length;
  return {
    sessions: await count(db.delete(session).where(lt(session.expiresAt, now)).returning({ id: session.id })),
    rateLimits: await count(db.delete(rateLimits).where(lt(rateLimits.resetAt, now)).returning({ key: rateLimits.key })),
    verifications: await count(db.delete(verification).where(lt(verification.expiresAt, now)).returning({ id: verification.id })),
    usedVerificationTokens: await count(
      db
        .delete(usedVerificationTokens)
        .where(lt(usedVerificationTokens.expiresAt, now))
        .returning({ hash: usedVerificationTokens.tokenHash }),
    ),
    signInChallenges: await count(
      db.delete(signInChallenges).where(lt(signInChallenges.expiresAt, now)).returning({ hash: signInChallenges.tokenHash }),
    ),
    commentConfirmations: await sweepCommentConfirmations(db, now),
    jobs: await pruneFinishedJobs(db, new Date(now.getTime() - FINISHED_JOB_RETENTION_MS)),
    mail: await pruneMailLog(db, new Date(now.getTime() - MAIL_LOG_RETENTION_MS)),
  };
}

/**
 * Commenters' confirmation links past their expiry: an address never confirmed (nor trusted) loses
 * its row, which held only that link and the once-a-day throttle (over by then: a link lasts 48
 * hours); any other row keeps its row and loses the dead link's hash. Answers how many were swept.
 */
async function sweepCommentConfirmations(db: Db, now: Date): Promise<number> {
  const expired = lt(commentAuthors.confirmExpiresAt, now);
  const deleted = await db
    .delete(commentAuthors)
    .where(and(expired, isNull(commentAuthors.confirmedAt), isNull(commentAuthors.trustedAt)))
    .returning({ email: commentAuthors.email });
  const cleared = await db
    .update(commentAuthors)
    .set({ confirmTokenHash: null, confirmExpiresAt: null })
    .where(expired)
    .returning({ email: commentAuthors.email });
  return deleted.length + cleared.length;
}

/** Once an hour, on one instance at a time (a recurring singleton task of the job runner). */
export const housekeepingTask = defineRecurringTask(
  "housekeeping",
  HOUSEKEEPING_INTERVAL_MS,
  async ({ db }) => {
    const deleted = await housekeep(db);
    logger.info({ deleted }, "housekeeping done");
  },
  { firstRunDelayMs: 60_000 },
);
