import { eq } from "drizzle-orm";
import { SETTINGS_FORBIDDEN } from "~/features/settings/settings-schema";
import { canManageSettings, type Actor } from "~/lib/permissions";
import { recordAudit } from "~/server/audit.server";
import { authorize } from "~/server/authorize.server";
import { bumpContentVersion, perContentVersion } from "~/server/content-version.server";
import type { Db } from "~/server/db/client.server";
import { appSettings } from "~/server/db/schema.server";
import { parseOrThrow } from "~/server/errors.server";
import { logger } from "~/server/logger.server";
import { DEFAULT_MENUS, type SiteMenus } from "./menus";
import { siteMenusSchema } from "./menus-schema";
import { readJsonSetting, writeJsonSetting } from "~/server/app-settings.server";

/** The app_settings row holding the owner's menus as JSON; none while the defaults stand. */
export const SITE_MENUS_KEY = "site_menus";

/** The owner's menus, or null while the defaults stand; a damaged record is logged and the defaults used. */
function readStoredMenus(db: Db): Promise<SiteMenus | null> {
  return readJsonSetting(db, SITE_MENUS_KEY, siteMenusSchema);
}

/** The menus and whether they are the defaults, for the editor. */
export async function readMenusForEditing(db: Db): Promise<{ menus: SiteMenus; isDefault: boolean }> {
  const stored = await readStoredMenus(db);
  return { menus: stored ?? DEFAULT_MENUS, isDefault: stored === null };
}

const menusPerVersion = perContentVersion(async (db) =>
  readStoredMenus(db)
    .then((stored) => stored ?? DEFAULT_MENUS)
    .catch((err: unknown) => {
      // Every page shows the menus: a failed read shows the defaults rather than failing the page.
      logger.error({ err }, "menus read failed; showing the default menus");
      return DEFAULT_MENUS;
    }),
);

/** The menus every page's header and footer show, kept in memory per content version. */
export function readMenus(db: Db): Promise<SiteMenus> {
  return menusPerVersion(db);
}

async function store(db: Db, actor: Actor, menus: SiteMenus | null, summary: string) {
  await db.transaction(async (tx) => {
    if (menus) {
      await writeJsonSetting(tx, SITE_MENUS_KEY, menus);
    } else {
      await tx.delete(appSettings).where(eq(appSettings.key, SITE_MENUS_KEY));
    }
    await bumpContentVersion(tx);
    await recordAudit(tx, { actor, action: "menus.update", target: { type: "settings", id: SITE_MENUS_KEY }, summary });
  });
}

/** Administrators only; every item validated (labels, site paths or https addresses, limits). Audited. */
export async function saveMenus(db: Db, actor: Actor | null, input: unknown): Promise<SiteMenus> {
  authorize(actor, canManageSettings, SETTINGS_FORBIDDEN);
  const menus = parseOrThrow(siteMenusSchema, input);
  await store(
    db,
    actor,
    menus,
    `header: ${menus.header.map((item) => item.label).join(", ") || "empty"}; footer: ${menus.footer.map((c) => c.title).join(", ") || "empty"}`,
  );
  return menus;
}

/** Both menus back to the defaults ("Reset to default"). */
export async function resetMenus(db: Db, actor: Actor | null): Promise<void> {
  authorize(actor, canManageSettings, SETTINGS_FORBIDDEN);
  await store(db, actor, null, "reset to the default menus");
}
