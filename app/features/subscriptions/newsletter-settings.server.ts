import { canManageSubscribers, type Actor } from "~/lib/permissions";
import { recordAudit } from "~/server/audit.server";
import { authorize } from "~/server/authorize.server";
import type { Db } from "~/server/db/client.server";
import { parseOrThrow } from "~/server/errors.server";
import { logger } from "~/server/logger.server";
import {
  DEFAULT_NEWSLETTER_SETTINGS,
  NEWSLETTER_TEXT,
  newsletterSettingsFormSchema,
  newsletterSettingsSchema,
  type NewsletterSettings,
} from "./newsletter-settings";
import { readJsonSetting, writeJsonSetting } from "~/server/app-settings.server";

/** The app_settings row holding the record as JSON. */
export const NEWSLETTER_SETTINGS_KEY = "newsletter_settings";

/**
 * The stored settings over the defaults, read from the database each time (the send loop reads the
 * pacing with it, so a change holds on every instance from the next email on). A damaged record is
 * logged and the defaults are used.
 */
export async function readNewsletterSettings(db: Db): Promise<NewsletterSettings> {
  const stored = await readJsonSetting(db, NEWSLETTER_SETTINGS_KEY, newsletterSettingsSchema.partial());
  return { ...DEFAULT_NEWSLETTER_SETTINGS, ...stored };
}

/** Admins only; audited. */
export async function saveNewsletterSettings(db: Db, actor: Actor | null, input: unknown): Promise<NewsletterSettings> {
  authorize(actor, canManageSubscribers, NEWSLETTER_TEXT.forbidden);
  const settings = parseOrThrow(newsletterSettingsFormSchema, input);
  await db.transaction(async (tx) => {
    await writeJsonSetting(tx, NEWSLETTER_SETTINGS_KEY, settings);
    await recordAudit(tx, {
      actor,
      action: "settings.update",
      target: { type: "settings", id: NEWSLETTER_SETTINGS_KEY },
      summary: `Newsletter: ${settings.emailByDefault ? "email by default" : "publish only by default"}, ${settings.content}, ${settings.ratePerSecond}/s`,
    });
  });
  logger.info({ userId: actor.id }, "newsletter settings saved");
  return settings;
}
