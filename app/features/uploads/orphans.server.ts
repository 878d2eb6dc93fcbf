import { defineRecurringTask } from "~/server/jobs/recurring.server";
import { sweepOrphanedUploads } from "./uploads.server";

/** Every hour, on one instance at a time: uploads nothing has used for a day are deleted. */
export const orphanedUploadsTask = defineRecurringTask(
  "uploads.orphans",
  60 * 60_000,
  async ({ db }) => {
    await sweepOrphanedUploads(db);
  },
  { firstRunDelayMs: 5 * 60_000 },
);
