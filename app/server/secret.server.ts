import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "./db/client.server";
import { appSettings } from "./db/schema.server";
import { getEnv } from "./env.server";

let cached: string | undefined;

/**
 * The app's signing secret: AUTH_SECRET when set, otherwise generated once and stored in the
 * database so every instance (and every restart) agrees on it.
 */
export async function getAppSecret(db: Db): Promise<string> {
  if (cached) return cached;
  const fromEnv = getEnv().AUTH_SECRET;
  if (fromEnv) return (cached = fromEnv);
  await db
    .insert(appSettings)
    .values({ key: "app_secret", value: randomBytes(32).toString("base64url") })
    .onConflictDoNothing();
  const [row] = await db.select({ value: appSettings.value }).from(appSettings).where(eq(appSettings.key, "app_secret"));
  if (!row) throw new Error("app secret missing");
  return (cached = row.value);
}
