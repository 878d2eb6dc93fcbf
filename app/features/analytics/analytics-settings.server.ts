import { canManageSettings, type Actor } from "~/lib/permissions";
import { recordAudit } from "~/server/audit.server";
import { authorize } from "~/server/authorize.server";
import type { Db } from "~/server/db/client.server";
import { parseOrThrow } from "~/server/errors.server";
import {
  analyticsSettingsFormSchema,
  analyticsSettingsSchema,
  DEFAULT_ANALYTICS_SETTINGS,
  STATISTICS_TEXT,
  type AnalyticsSettings,
} from "./analytics-settings";
import { readJsonSetting, writeJsonSetting } from "~/server/app-settings.server";

const ANALYTICS_SETTINGS_KEY = "analytics_settings";

/** The stored settings over the defaults; a damaged record reads as the defaults. */
export async function readAnalyticsSettings(db: Db): Promise<AnalyticsSettings> {
  return { ...DEFAULT_ANALYTICS_SETTINGS, ...(await readJsonSetting(db, ANALYTICS_SETTINGS_KEY, analyticsSettingsSchema.partial())) };
}

/** Administrators only; audited. */
export async function saveAnalyticsSettings(db: Db, actor: Actor | null, input: unknown): Promise<AnalyticsSettings> {
  authorize(actor, canManageSettings, STATISTICS_TEXT.settingsForbidden);
  const settings = parseOrThrow(analyticsSettingsFormSchema, input);
  await db.transaction(async (tx) => {
    await writeJsonSetting(tx, ANALYTICS_SETTINGS_KEY, settings);
    await recordAudit(tx, {
      actor,
      action: "settings.update",
      target: { type: "settings", id: ANALYTICS_SETTINGS_KEY },
      summary: `Statistics: Do Not Track ${settings.honourDoNotTrack ? "honoured" : "ignored"}, ${settings.blockedReferrers.length} blocked referrers`,
    });
  });
  return settings;
}
