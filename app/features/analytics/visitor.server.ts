import { createHmac, randomBytes } from "node:crypto";
import { eq, lt } from "drizzle-orm";
import type { Db } from "~/server/db/client.server";
import { analyticsSalts } from "~/server/db/schema.server";
import { truncateAddress } from "./classify";

/**
 * Visitor ids: HMAC-SHA-256(the day's salt, site host, address cut to /24 or /48, User-Agent), its
 * first 8 bytes as a bigint. The salt is one row per day (site time zone) in the database, so every
 * instance computes the same id; salts older than yesterday are deleted, so an id cannot be
 * recomputed or tied to another day's.
 */
const dayFormatters = new Map<string, Intl.DateTimeFormat>();

/** The calendar day (YYYY-MM-DD) of `at` in `timeZone`. */
export function dayIn(at: Date | number, timeZone: string): string {
  let format = dayFormatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
    dayFormatters.set(timeZone, format);
  }
  return format.format(at);
}

const salts = new Map<string, Buffer>();

/** The salt of `day`, made by whichever instance asks first. */
export async function saltOf(db: Db, day: string): Promise<Buffer> {
  const known = salts.get(day);
  if (known) return known;
  await db
    .insert(analyticsSalts)
    .values({ day, salt: randomBytes(32).toString("base64") })
    .onConflictDoNothing();
  const [row] = await db.select({ salt: analyticsSalts.salt }).from(analyticsSalts).where(eq(analyticsSalts.day, day));
  const stored = row?.salt;
  if (!stored) throw new Error(`statistics: no salt for ${day}`);
  const salt = Buffer.from(stored, "base64");
  if (salts.size > 4) salts.clear();
  salts.set(day, salt);
  return salt;
}

/** Deletes every salt older than `yesterday` (the day before the site's today); returns how many. */
export async function deleteOldSalts(db: Db, yesterday: string): Promise<number> {
  const deleted = await db.delete(analyticsSalts).where(lt(analyticsSalts.day, yesterday)).returning({ day: analyticsSalts.day });
  for (const key of salts.keys()) if (key < yesterday) salts.delete(key);
  return deleted.length;
}

/** The visitor id of an address and User-Agent on a site (host) under a day's salt; null without a usable address. */
export function visitorId(salt: Buffer, host: string, address: string, userAgent: string): bigint | null {
  const network = truncateAddress(address);
  if (!network) return null;
  return createHmac("sha256", salt).update(`${host.toLowerCase()}\n${network}\n${userAgent}`).digest().readBigInt64BE(0);
}

/** A new random visit id (63 bits, positive). */
export function newVisitId(): bigint {
  return randomBytes(8).readBigInt64BE(0) & 0x7fffffffffffffffn;
}
