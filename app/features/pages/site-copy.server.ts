import { z } from "zod";
import { canEditPageContent, type Actor } from "~/lib/permissions";
import { authorize } from "~/server/authorize.server";
import { recordAudit } from "~/server/audit.server";
import { bumpContentVersion, perContentVersion } from "~/server/content-version.server";
import type { Db } from "~/server/db/client.server";
import { parseOrThrow } from "~/server/errors.server";
import { logger } from "~/server/logger.server";
import {
  layoutCopyOf,
  overridesOf,
  parseStoredOverrides,
  siteCopyFormSchema,
  withDefaults,
  type LayoutCopy,
  type SiteCopy,
  type SiteCopyKey,
} from "./site-copy";
import { PAGE_CONTENT_FORBIDDEN } from "./testimonials-schema";
import { readJsonSetting, writeJsonSetting } from "~/server/app-settings.server";

/** The app_settings row holding the owner's changes to the public pages' sentences, as JSON. */
export const SITE_COPY_KEY = "site_copy";

async function readOverrides(db: Db): Promise<Partial<SiteCopy>> {
  // Each text is checked on its own (parseStoredOverrides), so one damaged text keeps the others.
  return parseStoredOverrides((await readJsonSetting(db, SITE_COPY_KEY, z.unknown())) ?? {});
}

/** Every sentence: the owner's text where changed, the spec's elsewhere. */
export async function readSiteCopy(db: Db): Promise<SiteCopy> {
  return withDefaults(await readOverrides(db));
}

/** The texts as public pages show them, kept in memory per content version (saving them bumps it); a failed read is not kept. */
const siteCopyPerVersion = perContentVersion(readSiteCopy);

/** The defaults when the read fails (public pages never fail on their texts), logged. */
export function readSiteCopyQuietly(db: Db): Promise<SiteCopy> {
  return siteCopyPerVersion(db).catch((err: unknown) => {
    logger.error({ err }, "site copy read failed; showing the default texts");
    return withDefaults({});
  });
}

const layoutCopyPerVersion = perContentVersion(async (db) => layoutCopyOf(await readSiteCopyQuietly(db)));

/** The texts every page's layout shows (footer, not-found page), kept in memory per content version. */
export function readLayoutCopy(db: Db): Promise<LayoutCopy> {
  return layoutCopyPerVersion(db);
}

async function store(db: Db, actor: Actor | null, overrides: Partial<SiteCopy>, summary: string) {
  await db.transaction(async (tx) => {
    await writeJsonSetting(tx, SITE_COPY_KEY, overrides);
    await bumpContentVersion(tx);
    await recordAudit(tx, { actor, action: "site-copy.update", target: { type: "settings", id: SITE_COPY_KEY }, summary });
  });
}

/** Admins and moderators; every field validated; only texts that differ from the defaults are kept. Audited. */
export async function saveSiteCopy(db: Db, actor: Actor | null, input: unknown): Promise<SiteCopy> {
  authorize(actor, canEditPageContent, PAGE_CONTENT_FORBIDDEN);
  const copy = parseOrThrow(siteCopyFormSchema, input);
  const overrides = overridesOf(copy);
  const changed = Object.keys(overrides);
  await store(db, actor, overrides, changed.length ? `changed: ${changed.join(", ")}` : "all texts at their defaults");
  return copy;
}

/** One field back to the spec's text ("Reset to default"); the other fields keep their stored texts. */
export async function resetSiteCopyField(db: Db, actor: Actor | null, key: SiteCopyKey): Promise<SiteCopy> {
  authorize(actor, canEditPageContent, PAGE_CONTENT_FORBIDDEN);
  const { [key]: _reset, ...rest } = await readOverrides(db);
  await store(db, actor, rest, `reset to default: ${key}`);
  return withDefaults(rest);
}
