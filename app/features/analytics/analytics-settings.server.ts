import { eq } from "drizzle-orm";
import { canManageSettings, type Actor } from "~/lib/permissions";
import { recordAudit } from "~/server/audit.server";
import { authorize } from "~/server/authorize.server";
import type { Db } from "~/server/db/client.server";
import { appSettings } from "~/server/db/schema.server";
import { parseOrThrow } from "~/server/errors.server";
import {
  analyticsSettingsFormSchema,
  analyticsSettingsSchema,
  DEFAULT_ANALYTICS_SETTINGS,
  STATISTICS_TEXT,
  type AnalyticsSettings,
} from "./analytics-settings";

const ANALYTICS_SETTINGS_KEY = "analytics_settings";

/** The settings a stored record holds, over the defaults; a missing or damaged record reads as the defaults. */
function analyticsSettingsFrom(value: string | null | undefined): AnalyticsSettings {
  if (!value) return DEFAULT_ANALYTICS_SETTINGS;
  let stored: unknown;
  try {
    stored = JSON.parse(value);
  } catch {
    return DEFAULT_ANALYTICS_SETTINGS;
  }
  const parsed = analyticsSettingsSchema.partial().safeParse(stored);
  return parsed.success ? { ...DEFAULT_ANALYTICS_SETTINGS, ...parsed.data } : DEFAULT_ANALYTICS_SETTINGS;
}

/** The stored settings over the defaults; a damaged record reads as the defaults. */
export async function readAnalyticsSettings(db: Db): Promise<AnalyticsSettings> {
  const [row] = await db.select({ value: appSettings.value }).from(appSettings).where(eq(appSettings.key, ANALYTICS_SETTINGS_KEY));
  return analyticsSettingsFrom(row?.value);
}

/** Administrators only; audited. */
export async function saveAnalyticsSettings(db: Db, actor: Actor | null, input: unknown): Promise<AnalyticsSettings> {
  authorize(actor, canManageSettings, STATISTICS_TEXT.settingsForbidden);
  const settings = parseOrThrow(analyticsSettingsFormSchema, input);
  const value = JSON.stringify(settings);
  await db.transaction(async (tx) => {
    await tx
      .insert(appSettings)
      .values({ key: ANALYTICS_SETTINGS_KEY, value })
      .onConflictDoUpdate({ target: appSettings.key, set: { value, updatedAt: new Date() } });
    await recordAudit(tx, {
      actor,
      action: "settings.update",
      target: { type: "settings", id: ANALYTICS_SETTINGS_KEY },
      summary: `Statistics: Do Not Track ${settings.honourDoNotTrack ? "honoured" : "ignored"}, ${settings.blockedReferrers.length} blocked referrers`,
    });
  });
  return settings;
}
