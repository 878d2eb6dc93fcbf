import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
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

const SEAL_VERSION = "v1";

/** A key for one purpose, derived from the app secret, so a sealed value is useless without it. */
async function purposeKey(db: Db, purpose: string): Promise<Buffer> {
  return createHash("sha256")
    .update(`${purpose}\0${await getAppSecret(db)}`)
    .digest();
}

/** Encrypts a short secret (e.g. a TOTP key) for storage: AES-256-GCM under a key derived from the app secret. */
export async function sealWithAppSecret(db: Db, purpose: string, plaintext: string): Promise<string> {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", await purposeKey(db, purpose), iv);
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [SEAL_VERSION, iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), body.toString("base64url")].join(".");
}

/** The plaintext of sealWithAppSecret; throws when the value was tampered with or the app secret changed. */
export async function openWithAppSecret(db: Db, purpose: string, sealed: string): Promise<string> {
  const [version, iv, tag, body] = sealed.split(".");
  if (version !== SEAL_VERSION || !iv || !tag || body === undefined) throw new Error("sealed value has an unknown format");
  const decipher = createDecipheriv("aes-256-gcm", await purposeKey(db, purpose), Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
}
