import { sql } from "drizzle-orm";
import { canManageSettings, type Actor } from "~/lib/permissions";
import { authorize } from "~/server/authorize.server";
import { recordAudit } from "~/server/audit.server";
import { cardSiteChanged, enqueueCategoryShareImages } from "~/features/share-images/share-images.server";
import { bumpContentVersion, currentContentVersion } from "~/server/content-version.server";
import { getDb, ONE_ROW, type Db } from "~/server/db/client.server";
import { appSettings } from "~/server/db/schema.server";
import { getEnv, type Env } from "~/server/env.server";
import { parseOrThrow } from "~/server/errors.server";
import { logger } from "~/server/logger.server";
import {
  SETTINGS_FORBIDDEN,
  securitySettingsFormSchema,
  siteSettingsFormSchema,
  storedSecuritySettingsSchema,
  storedSiteSettingsSchema,
  type SecuritySettings,
  type SiteMadeImages,
  type SiteSettings,
  type SiteSettingsInput,
} from "./settings-schema";
import { storeLogoMark, storeSiteIcons } from "~/features/uploads/site-icons.server";
import { DEMO_SITE_SETTINGS, NEUTRAL_SITE_NAME } from "./site-defaults";
import { readJsonSetting, writeJsonSetting } from "~/server/app-settings.server";

/** The app_settings row holding the record as JSON. */
export const SITE_SETTINGS_KEY = "site_settings";

/**
 * Until the owner saves: the demo identity when demo content is seeded (feeds and contact address
 * from the environment, as before settings existed), otherwise a neutral, empty site.
 */
export function defaultSiteSettings(env: Env): SiteSettings {
  const contactEmail = env.CONTACT_PUBLIC_EMAIL ?? env.CONTACT_TO;
  const fromEnv = {
    ...(contactEmail ? { contactEmail } : {}),
    ...(env.SUBSTACK_URL ? { substackUrl: env.SUBSTACK_URL } : {}),
    ...(env.TSP_BLOG_URL ? { tspBlogUrl: env.TSP_BLOG_URL } : {}),
    ...(env.TSP_KB_URL ? { tspKbUrl: env.TSP_KB_URL } : {}),
  };
  if (env.SEED_DEMO_CONTENT) return { ...DEMO_SITE_SETTINGS, ...fromEnv };
  return {
    siteName: NEUTRAL_SITE_NAME,
    siteUrl: "",
    ownerName: "",
    headline: "",
    tagline: "",
    bio: "",
    portraitUrl: "",
    logoUrl: "",
    faviconUrl: "",
    logoMark: null,
    icons: null,
    socialImageUrl: "",
    contactEmail: "",
    resumeUrl: "",
    socialLinks: [],
    serviceLinks: [],
    newsletterUrl: "",
    bookingMode: "built-in",
    schedulingUrl: "",
    substackUrl: "",
    tspBlogUrl: "",
    tspKbUrl: "",
    accentColor: "",
    fontPairing: "system",
    ...fromEnv,
  };
}

/** The record from the database, over the defaults; a damaged row is logged and the defaults used. */
export async function readSiteSettings(db: Db, env: Env = getEnv()): Promise<SiteSettings> {
  const defaults = defaultSiteSettings(env);
  const stored = await readJsonSetting(db, SITE_SETTINGS_KEY, storedSiteSettingsSchema);
  if (!stored) return defaults;
  // A record saved before the booking setting existed keeps what that site had: its embedded widget, or the site's own booking.
  const bookingMode = stored.bookingMode ?? (stored.schedulingUrl ? "external-embed" : "built-in");
  return { ...defaults, ...stored, bookingMode };
}

let cache: { version: number; settings: Promise<SiteSettings> } | undefined;
let lastKnown: SiteSettings | undefined;

/** The settings most recently read, for synchronous callers (the CSP header); undefined before the first read. */
export function lastKnownSiteSettings(): SiteSettings | undefined {
  return lastKnown;
}

/** Version of the content this instance follows, or undefined when it follows none (scripts, unit tests). */
function followedVersion(): number | undefined {
  try {
    return currentContentVersion();
  } catch {
    return undefined;
  }
}

/**
 * The settings every page, feed and email reads: kept in memory per content version, so a save on
 * any instance (which bumps the version) is seen everywhere on the next request.
 */
export function getSiteSettings(): Promise<SiteSettings> {
  const version = followedVersion();
  if (version === undefined) return readSiteSettings(getDb());
  if (cache?.version !== version) {
    const settings = readSiteSettings(getDb());
    cache = { version, settings };
    settings.then((value) => {
      if (cache?.settings === settings) lastKnown = value;
    });
    settings.catch(() => {
      if (cache?.settings === settings) cache = undefined;
    });
  }
  return cache.settings;
}

/**
 * The logo mark and the icons, made once when their image changes (never per request): the ones
 * saved before are kept while their source stays. The favicon falls back to the logo's image.
 */
async function madeImages(db: Db, actor: Actor, input: SiteSettingsInput, previous: SiteSettings): Promise<SiteMadeImages> {
  const iconSource = input.faviconUrl || input.logoUrl;
  const iconLabel = input.faviconUrl ? "Favicon" : "Logo mark";
  const [logoMark, icons] = await Promise.all([
    !input.logoUrl
      ? null
      : previous.logoMark?.source === input.logoUrl
        ? previous.logoMark
        : storeLogoMark(db, actor, input.logoUrl, "Logo mark"),
    !iconSource ? null : previous.icons?.source === iconSource ? previous.icons : storeSiteIcons(db, actor, iconSource, iconLabel),
  ]);
  return { logoMark, icons };
}

/** Admins only; validates every field, stores the whole record and bumps the content version. */
export async function saveSiteSettings(db: Db, actor: Actor | null, input: unknown): Promise<SiteSettings> {
  authorize(actor, canManageSettings, SETTINGS_FORBIDDEN);
  const fields = parseOrThrow(siteSettingsFormSchema, input);
  const settings: SiteSettings = { ...fields, ...(await madeImages(db, actor, fields, await readSiteSettings(db))) };
  const previous = await readSiteSettings(db);
  await db.transaction(async (tx) => {
    await writeJsonSetting(tx, SITE_SETTINGS_KEY, settings);
    // Posts' cards are drawn again on their next request (their URLs change with the name and brand).
    if (cardSiteChanged(settings, previous)) await enqueueCategoryShareImages(tx, settings);
    await bumpContentVersion(tx);
    await recordAudit(tx, {
      actor,
      action: "settings.update",
      target: { type: "settings", id: SITE_SETTINGS_KEY },
      summary: `Site name: ${settings.siteName}`,
    });
  });
  logger.info({ userId: actor.id }, "site settings saved");
  return settings;
}

export const SECURITY_SETTINGS_KEY = "security_settings";

/** The stored security settings record (JSON text, or null when never saved), as a column of the caller's statement. */
export function securitySettingsValueOf() {
  return sql<string | null>`(select ${appSettings.value} from ${appSettings} where ${appSettings.key} = ${SECURITY_SETTINGS_KEY})`;
}

/** The settings a stored record (securitySettingsValueOf) holds; an invalid one is logged and gives the defaults. */
export function securitySettingsFrom(value: string | null | undefined): SecuritySettings {
  let json: unknown;
  try {
    json = value ? JSON.parse(value) : {};
  } catch {
    json = undefined;
  }
  const stored = storedSecuritySettingsSchema.safeParse(json);
  if (!stored.success) logger.error({ issues: stored.error.issues }, "security settings: stored record is invalid; using the defaults");
  return { requireTwoFactor: false, ...(stored.success ? stored.data : {}) };
}

/** The security settings (read on every admin request: a setting must hold from the moment it is saved, on every instance). */
export async function readSecuritySettings(db: Db): Promise<SecuritySettings> {
  const [row] = await db.select({ value: securitySettingsValueOf() }).from(ONE_ROW);
  return securitySettingsFrom(row?.value);
}

/** Admins only; audited. */
export async function saveSecuritySettings(db: Db, actor: Actor | null, input: unknown): Promise<SecuritySettings> {
  authorize(actor, canManageSettings, SETTINGS_FORBIDDEN);
  const settings = parseOrThrow(securitySettingsFormSchema, input);
  await db.transaction(async (tx) => {
    await writeJsonSetting(tx, SECURITY_SETTINGS_KEY, settings);
    await recordAudit(tx, {
      actor,
      action: "settings.security",
      summary: `two-factor authentication ${settings.requireTwoFactor ? "required" : "not required"} for admins and moderators`,
    });
  });
  return settings;
}
