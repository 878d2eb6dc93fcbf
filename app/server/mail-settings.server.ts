import { z } from "zod";
import { currentContentVersion } from "./content-version.server";
import { getDb, type Db } from "./db/client.server";
import { getEnv } from "./env.server";
import { logger } from "./logger.server";
import { openWithAppSecret } from "./secret.server";
import { readJsonSetting } from "./app-settings.server";

/** The app_settings row holding the owner's SMTP settings as JSON (the password sealed). */
export const MAIL_SETTINGS_KEY = "mail_settings";
/** The purpose the SMTP password is sealed for (a key of its own, derived from the app secret). */
export const SMTP_PASSWORD_PURPOSE = "smtp-password";

export const SMTP_SECURITY = ["none", "starttls", "tls"] as const;
export type SmtpSecurity = (typeof SMTP_SECURITY)[number];

/** What is stored. The password only ever as sealWithAppSecret's output, never in clear. */
export const storedMailSettingsSchema = z.object({
  host: z.string(),
  port: z.number().int().min(1).max(65535),
  security: z.enum(SMTP_SECURITY),
  user: z.string(),
  passwordSealed: z.string().nullable(),
  senderName: z.string(),
  senderAddress: z.string(),
  replyTo: z.string(),
  /** False: the owner turned email subscriptions off (the Subscribe form is not offered). */
  subscriptionsEnabled: z.boolean().default(true),
});
export type StoredMailSettings = z.infer<typeof storedMailSettingsSchema>;

/** How mail is sent: the environment's SMTP_URL wins over the settings; null when neither is set. */
export type MailConfig =
  | { source: "env"; url: string; senderName: string; senderAddress: string; replyTo: string }
  | {
      source: "settings";
      host: string;
      port: number;
      security: SmtpSecurity;
      user: string;
      password: string;
      senderName: string;
      senderAddress: string;
      replyTo: string;
    };

/** The stored settings, or null before the owner saved any (or when the row is damaged: logged). */
export function readStoredMailSettings(db: Db): Promise<StoredMailSettings | null> {
  return readJsonSetting(db, MAIL_SETTINGS_KEY, storedMailSettingsSchema);
}

/** The address part of MAIL_FROM ("Portfolio <no-reply@x>" → "no-reply@x"). */
export function mailFromAddress(mailFrom: string): string {
  return /<([^>]+)>/.exec(mailFrom)?.[1]?.trim() ?? mailFrom.trim();
}

/** The settings' config, or the environment's when SMTP_URL is set; null while mail is not set up. */
export async function readMailConfig(db: Db): Promise<MailConfig | null> {
  const env = getEnv();
  const stored = await readStoredMailSettings(db);
  const sender = {
    senderName: stored?.senderName ?? "",
    senderAddress: stored?.senderAddress || mailFromAddress(env.MAIL_FROM),
    replyTo: stored?.replyTo ?? "",
  };
  if (env.SMTP_URL) return { source: "env", url: env.SMTP_URL, ...sender };
  if (!stored?.host || !stored.senderAddress) return null;
  let password = "";
  if (stored.passwordSealed) {
    try {
      password = await openWithAppSecret(db, SMTP_PASSWORD_PURPOSE, stored.passwordSealed);
    } catch {
      // AUTH_SECRET changed since the password was saved: the owner must enter it again.
      logger.error("mail settings: the SMTP password cannot be decrypted (did AUTH_SECRET change?); enter it again in Settings → Email");
      return null;
    }
  }
  return { source: "settings", ...stored, password, ...sender };
}

interface MailState {
  config: MailConfig | null;
  subscriptionsEnabled: boolean;
}

async function readMailState(db: Db): Promise<MailState> {
  const [config, stored] = await Promise.all([readMailConfig(db), readStoredMailSettings(db)]);
  return { config, subscriptionsEnabled: stored?.subscriptionsEnabled ?? true };
}

let cache: { version: number; db: Db; smtpUrl: string | undefined; state: Promise<MailState> } | undefined;

/**
 * The mail state every send and public page reads: kept in memory per content version (saving the
 * settings bumps it), so a save on any instance applies everywhere without a restart.
 */
function getMailState(db: Db): Promise<MailState> {
  let version: number;
  try {
    version = currentContentVersion();
  } catch {
    // Scripts and unit tests follow no version: read every time.
    return readMailState(db);
  }
  const smtpUrl = getEnv().SMTP_URL;
  // Another database or SMTP_URL (a test suite switching them) is another state, whatever the version.
  if (cache?.version !== version || cache.db !== db || cache.smtpUrl !== smtpUrl) {
    const state = readMailState(db);
    cache = { version, db, smtpUrl, state };
    state.catch(() => {
      if (cache?.state === state) cache = undefined;
    });
  }
  return cache.state;
}

/** The config to send with (the settings', or SMTP_URL's), or null while mail is not set up. */
export async function getMailConfig(db: Db = getDb()): Promise<MailConfig | null> {
  return (await getMailState(db)).config;
}

/** Whether anything can be emailed now. */
export async function isMailConfigured(db: Db = getDb()): Promise<boolean> {
  return (await getMailConfig(db)) !== null;
}

/** What public pages offer in place of the Subscribe form: the form, "not available yet", or nothing (turned off). */
export type SubscriptionOffer = "form" | "unavailable" | "off";

export async function subscriptionOffer(db: Db = getDb()): Promise<SubscriptionOffer> {
  const state = await getMailState(db);
  if (!state.subscriptionsEnabled) return "off";
  return state.config ? "form" : "unavailable";
}

/** Whether the Subscribe form is offered: mail works and the owner did not turn subscriptions off. */
export async function subscriptionsAvailable(db: Db = getDb()): Promise<boolean> {
  return (await subscriptionOffer(db)) === "form";
}
