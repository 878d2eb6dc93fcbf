import { eq, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Db } from "./db/client.server";
import { appSettings } from "./db/schema.server";
import { logger } from "./logger.server";

/**
 * Each group of settings (site, mail, menus, page texts…) is one JSON record in `app_settings`, so every
 * instance reads the same. Reading one checks it against its schema: none stored reads as null, and so
 * does a damaged one (not JSON, or not what the schema says) — logged with the paths of what is wrong,
 * never the values, since a record may hold a sealed secret — and the caller shows its defaults rather
 * than failing the page.
 */
export async function readJsonSetting<S extends z.ZodType>(db: Db, key: string, schema: S): Promise<z.output<S> | null> {
  const [row] = await db.select({ value: appSettings.value }).from(appSettings).where(eq(appSettings.key, key));
  if (!row) return null;
  let json: unknown;
  try {
    json = JSON.parse(row.value);
  } catch {
    logger.error({ key }, "stored settings record is not JSON; using the defaults");
    return null;
  }
  const stored = schema.safeParse(json);
  if (stored.success) return stored.data;
  logger.error(
    { key, issues: stored.error.issues.map((issue) => issue.path.join(".")) },
    "stored settings record is invalid; using the defaults",
  );
  return null;
}

/** Stores a group's record, replacing the one before (call it inside the transaction that audits the change). */
export async function writeJsonSetting(db: Db, key: string, record: unknown): Promise<void> {
  const value = JSON.stringify(record);
  await db
    .insert(appSettings)
    .values({ key, value })
    .onConflictDoUpdate({ target: appSettings.key, set: { value, updatedAt: sql`now()` } });
}
