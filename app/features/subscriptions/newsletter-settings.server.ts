import { eq } from "drizzle-orm";
import { canManageSubscribers, type Actor } from "~/lib/permissions";
import { recordAudit } from "~/server/audit.server";
import { authorize } from "~/server/authorize.server";
import type { Db } from "~/server/db/client.server";
import { appSettings } from "~/server/db/schema.server";
import { parseOrThrow } from "~/server/errors.server";
import { logger } from "~/server/logger.server";
import {
  DEFAULT_NEWSLETTER_SETTINGS,
  NEWSLETTER_TEXT,
  newsletterSettingsFormSchema,
  newsletterSettingsSchema,
  type NewsletterSettings,
} from "./newsletter-settings";

/** The app_settings row holding the record as JSON. */
export const NEWSLETTER_SETTINGS_KEY = "newsletter_settings";

/**
 * The stored settings over the defaults, read from the database each time (the send loop reads the
 * pacing with it, so a change holds on every instance from the next email on). A damaged record is
 * logged and the defaults are used.
 */
export async function readNewsletterSettings(db: Db): Promise<NewsletterSettings> {
  const [row] = await db.select({ value: appSettings.value }).from(appSettings).where(eq(appSettings.key, NEWSLETTER_SETTINGS_KEY));
  if (!row) return DEFAULT_NEWSLETTER_SETTINGS;
  let json: unknown;
  try {
    json = JSON.parse(row.value);
  } catch {
    json = undefined;
  }
  const stored = newsletterSettingsSchema.partial().safeParse(json);
  if (!stored.success) {
    logger.error({ issues: stored.error.issues }, "newsletter settings: stored record is invalid; using the defaults");
    return DEFAULT_NEWSLETTER_SETTINGS;
  }
  return { ...DEFAULT_NEWSLETTER_SETTINGS, ...stored.data };
}

/** Admins only; audited. */
export async function saveNewsletterSettings(db: Db, actor: Actor | null, input: unknown): Promise<NewsletterSettings> {
  authorize(actor, canManageSubscribers, NEWSLETTER_TEXT.forbidden);
  const settings = parseOrThrow(newsletterSettingsFormSchema, input);
  const value = JSON.stringify(settings);
  await db.transaction(async (tx) => {
    await tx
      .insert(appSettings)
      .values({ key: NEWSLETTER_SETTINGS_KEY, value })
      .onConflictDoUpdate({ target: appSettings.key, set: { value, updatedAt: new Date() } });
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
