import { createHmac, timingSafeEqual } from "node:crypto";
import type { Db } from "~/server/db/client.server";
import { getAppSecret } from "~/server/secret.server";

/** What a signed comment token allows; each purpose's signature is useless for the others. */
export type CommentTokenPurpose = "edit" | "moderate-approve" | "moderate-spam" | "unsubscribe" | "stamp";

/** A signature of `value` for one purpose, made with the app secret (no row to store, nothing to expire but by its value). */
export async function signComment(db: Db, purpose: CommentTokenPurpose, value: string): Promise<string> {
  return createHmac("sha256", await getAppSecret(db))
    .update(`comment:${purpose}\0${value}`)
    .digest("base64url");
}

export async function checkCommentSignature(db: Db, purpose: CommentTokenPurpose, value: string, token: string): Promise<boolean> {
  const expected = Buffer.from(await signComment(db, purpose, value));
  const given = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The form's time stamp: when the page was drawn, signed so a bot cannot claim it waited. */
export async function makeStamp(db: Db, now = Date.now()): Promise<string> {
  return `${now}.${await signComment(db, "stamp", String(now))}`;
}

/** Milliseconds since the stamp was made, or null for a missing or forged stamp. */
export async function stampAge(db: Db, stamp: string, now = Date.now()): Promise<number | null> {
  const [time = "", signature = ""] = stamp.split(".");
  if (!/^\d{1,15}$/.test(time) || !(await checkCommentSignature(db, "stamp", time, signature))) return null;
  return now - Number(time);
}
