import { sweepStaleShareImages } from "~/features/share-images/share-images.server";
import { readSiteSettings } from "~/features/settings/settings.server";
import { defineRecurringTask } from "~/server/jobs/recurring.server";
import { sweepOrphanedUploads } from "./uploads.server";

/**
 * Every hour, on one instance at a time: uploads nothing has used for a day are deleted, and so are
 * the generated share images no page shows any more.
 */
export const orphanedUploadsTask = defineRecurringTask(
  "uploads.orphans",
  60 * 60_000,
  async ({ db }) => {
    await sweepOrphanedUploads(db);
    await sweepStaleShareImages(db, (await readSiteSettings(db)).siteName);
  },
  { firstRunDelayMs: 5 * 60_000 },
);
