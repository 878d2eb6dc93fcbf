import { emailChangeConfirmMail } from "~/features/account/account-email.server";
import { analyticsFoldTask } from "~/features/analytics/fold.server";
import { analyticsRollupTask } from "~/features/analytics/rollup.server";
import { passwordResetMail } from "~/features/auth/password-reset.server";
import { bookingMail } from "~/features/booking/booking.server";
import { calendarFeedsTask } from "~/features/booking/calendar-feeds.server";
import { commentAvatarJob } from "~/features/comments/comment-avatars.server";
import { commentConfirmMail } from "~/features/comments/comment-authors.server";
import { ownerCommentMail, replyCommentMail } from "~/features/comments/comment-mail.server";
import { adoptPreviousReleaseMessagesTask } from "~/features/contact/contact.server";
import { announceActorTask, deliverJob, federatePostJob } from "~/features/fediverse/fediverse.server";
import { contactMail } from "~/features/contact/outbox.server";
import { deletePostFilesJob } from "~/features/posts/write/post-files.server";
import { publishPostJob } from "~/features/posts/write/scheduling.server";
import { readSiteSettings } from "~/features/settings/settings.server";
import { shareImageJob, sweepStaleShareImages } from "~/features/share-images/share-images.server";
import { newsletterMail, subscriptionMail } from "~/features/subscriptions/subscriptions.server";
import { verifyWebmentionJob } from "~/features/webmentions/receive.server";
import { sendWebmentionsJob } from "~/features/webmentions/send.server";
import { sweepOrphanedUploads } from "~/features/uploads/uploads.server";
import { emailChangedMail } from "~/features/users/users.server";
import { pruneAuditTask } from "~/server/audit.server";
import { getDatabase } from "~/server/db/client.server";
import { vacuumListingTable } from "~/server/db/vacuum.server";
import { housekeepingTask } from "~/server/housekeeping.server";
import { defineRecurringTask } from "~/server/jobs/recurring.server";

/**
 * Every uploaded file nothing has used for a day is deleted every hour, on one instance at a time, and
 * so are the generated share images no page shows any more. It joins the uploads' and the share
 * images' sweeps with the site's name, so it lives here, above all three.
 */
export const orphanedUploadsTask = defineRecurringTask(
  "uploads.orphans",
  60 * 60_000,
  async ({ db }) => {
    await sweepOrphanedUploads(db);
    await sweepStaleShareImages(db, await readSiteSettings(db));
  },
  { firstRunDelayMs: 5 * 60_000 },
);

/** The embedded database's VACUUM of blog_posts, every 5 minutes (PGlite has no autovacuum; app/server/db/vacuum.server.ts). */
export const vacuumTask = defineRecurringTask(
  "pglite.vacuum",
  5 * 60_000,
  async ({ db }) => {
    if (getDatabase().kind === "pglite") await vacuumListingTable(db);
  },
  { firstRunDelayMs: 60_000 },
);

/**
 * Every job kind, mail kind and recurring task the server runs (docs/decisions/0020-jobs.md). Each instance's
 * runner and outbox must know every kind any instance may enqueue, so this one list is what the server imports:
 * a new job is added here. (Scheduled backups are defined at start-up from the configuration:
 * scheduleBackups.)
 */
export const JOBS = [
  publishPostJob,
  deletePostFilesJob,
  shareImageJob,
  verifyWebmentionJob,
  sendWebmentionsJob,
  federatePostJob,
  deliverJob,
  commentAvatarJob,
] as const;

/** Every kind of mail the outbox sends (app/server/mail-outbox.server.ts): any instance may send any of them. */
export const MAIL_KINDS = [
  bookingMail,
  passwordResetMail,
  contactMail,
  subscriptionMail,
  newsletterMail,
  emailChangedMail,
  emailChangeConfirmMail,
  ownerCommentMail,
  replyCommentMail,
  commentConfirmMail,
] as const;

export const RECURRING_TASKS = [
  orphanedUploadsTask,
  vacuumTask,
  housekeepingTask,
  pruneAuditTask,
  analyticsRollupTask,
  analyticsFoldTask,
  calendarFeedsTask,
  adoptPreviousReleaseMessagesTask,
  announceActorTask,
] as const;
