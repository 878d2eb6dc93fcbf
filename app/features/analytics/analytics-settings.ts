import { z } from "zod";
import { formCheckbox } from "~/lib/forms";

export const STATISTICS_TEXT = {
  forbidden: "Only administrators, and moderators an administrator gave Statistics, can see the statistics.",
  settingsForbidden: "Only administrators can change the statistics settings.",
  saved: "Statistics settings saved",
  blockedInvalid: "Blocked referrers must be host names like spam.example, one per line",
} as const;

export const STATISTICS_SETTINGS_LABELS = {
  honourDoNotTrack: "Honour Do Not Track and Global Privacy Control (do not count those visitors)",
  blockedReferrers: "Blocked referrers",
} as const;

const HOST = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;

/** The owner's statistics choices: one record every instance reads from the database. */
export const analyticsSettingsSchema = z.object({
  /** Visitors whose browser sends Do Not Track or Global Privacy Control are not counted. */
  honourDoNotTrack: z.boolean(),
  /** Referrer hosts (and their subdomains) whose views are not counted. */
  blockedReferrers: z.array(z.string().regex(HOST, STATISTICS_TEXT.blockedInvalid)).max(500),
});
export type AnalyticsSettings = z.output<typeof analyticsSettingsSchema>;

export const DEFAULT_ANALYTICS_SETTINGS: AnalyticsSettings = { honourDoNotTrack: false, blockedReferrers: [] };

/** The settings form as the browser posts it (blocked hosts one per line). */
export const analyticsSettingsFormSchema = z.object({
  honourDoNotTrack: formCheckbox,
  blockedReferrers: z
    .string()
    .max(20_000)
    .optional()
    .transform((text) =>
      (text ?? "")
        .split(/[\s,]+/)
        .map((host) =>
          host
            .trim()
            .toLowerCase()
            .replace(/^www\./, ""),
        )
        .filter(Boolean),
    )
    .pipe(analyticsSettingsSchema.shape.blockedReferrers),
});
