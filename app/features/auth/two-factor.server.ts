import { createHash, randomInt } from "node:crypto";
import { hashSecretToken, newSecretToken } from "~/server/secret-token.server";
import { and, eq, gt, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import { ONE_ROW, type Db } from "~/server/db/client.server";
import { recoveryCodes, signInChallenges, twoFactor } from "~/server/db/schema.server";
import { openWithAppSecret, sealWithAppSecret } from "~/server/secret.server";
import { hasPasskey, hasPasskeyOf } from "./passkeys.server";
import { looksLikeTotp, normalizeCode } from "./two-factor-schema";

/**
 * The second factor (docs/decisions/0029-two-factor.md): an authenticator app (TOTP, RFC 6238,
 * 30-second steps, 6 digits) and 10 single-use recovery codes. The TOTP secret is stored sealed with the
 * app secret; recovery codes only as hashes.
 */

const SEAL_PURPOSE = "totp";
export const ISSUER = "Portfolio";
export const RECOVERY_CODE_COUNT = 10;
/** One step either side: a phone clock a little off still works. */
const EPOCH_TOLERANCE_SECONDS = 30;
/** otplib's default TOTP period. */
const TOTP_STEP_SECONDS = 30;
const RECOVERY_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";

let loadedOtp: Promise<typeof import("otplib")> | undefined;
/** otplib is loaded with the first code checked or key made: most requests never need it. */
function otp(): Promise<typeof import("otplib")> {
  loadedOtp ??= import("otplib");
  return loadedOtp;
}

export function hashCode(code: string): string {
  return createHash("sha256").update(normalizeCode(code)).digest("base64url");
}

/** Ten codes like "k7m2q-x9c4t" (50 bits each), shown once. */
export function generateRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join("");
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** The 30-second step a TOTP code belongs to, if it is valid now and later than `afterStep`. */
export async function verifyTotp(secret: string, code: string, afterStep: number | null): Promise<number | null> {
  const token = normalizeCode(code);
  if (!/^\d{6}$/.test(token)) return null;
  // A last used step ahead of this clock's window: the clock went back since that sign-in. No code
  // of "now" can be later, so none is accepted (otplib would throw on such an afterTimeStep: a 500).
  const latestStep = Math.floor((Date.now() / 1000 + EPOCH_TOLERANCE_SECONDS) / TOTP_STEP_SECONDS);
  if (afterStep !== null && afterStep >= latestStep) return null;
  const result = await (
    await otp()
  ).verify({
    secret,
    token,
    epochTolerance: EPOCH_TOLERANCE_SECONDS,
    ...(afterStep === null ? {} : { afterTimeStep: afterStep }),
  });
  return result.valid && "timeStep" in result && typeof result.timeStep === "number" ? result.timeStep : null;
}

export interface TotpSetup {
  secret: string;
  uri: string;
  /** The otpauth URI as an SVG image (data: URL), for the authenticator app to scan. */
  qrDataUrl: string;
}

async function describeSetup(secret: string, email: string): Promise<TotpSetup> {
  const uri = (await otp()).generateURI({ issuer: ISSUER, label: email, secret });
  // Only a setup draws a QR code: loaded then.
  const { default: QRCode } = await import("qrcode");
  const svg = await QRCode.toString(uri, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
  return { secret, uri, qrDataUrl: `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}` };
}

export interface TwoFactorState {
  /** The authenticator app is on. */
  enabled: boolean;
  /** A setup waiting for its first code. */
  pending: TotpSetup | null;
  /** An authenticator app that is on, or a passkey: the account has recovery codes to count and renew. */
  secondFactor: boolean;
  recoveryCodesLeft: number;
}

export async function readTwoFactorState(db: Db, user: { id: string; email: string }): Promise<TwoFactorState> {
  const [row] = await db.select().from(twoFactor).where(eq(twoFactor.userId, user.id));
  const enabled = Boolean(row?.enabledAt);
  const pending =
    row && !row.enabledAt ? await describeSetup(await openWithAppSecret(db, SEAL_PURPOSE, row.secretEncrypted), user.email) : null;
  const secondFactor = enabled || (await hasPasskey(db, user.id));
  return { enabled, pending, secondFactor, recoveryCodesLeft: secondFactor ? await countRecoveryCodesLeft(db, user.id) : 0 };
}

async function countRecoveryCodesLeft(db: Db, userId: string): Promise<number> {
  const [left] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  return left?.n ?? 0;
}

/**
 * The user's authenticator app is on (a setup still waiting for its first code does not count), as a
 * column of the caller's statement.
 */
function hasAuthenticatorAppOf(userId: string) {
  return sql<boolean>`exists (select 1 from ${twoFactor} where ${twoFactor.userId} = ${userId} and ${twoFactor.enabledAt} is not null)`;
}

export async function hasAuthenticatorApp(db: Db, userId: string): Promise<boolean> {
  const [row] = await db.select({ on: hasAuthenticatorAppOf(userId) }).from(ONE_ROW);
  return row?.on === true;
}

/**
 * An authenticator app that is on, or a passkey: either makes the password alone not enough to sign in.
 * A column of the caller's statement (the admin area reads it with the other facts of every request).
 */
export function hasTwoFactorOf(userId: string) {
  return sql<boolean>`(${hasAuthenticatorAppOf(userId)} or ${hasPasskeyOf(userId)})`;
}

export async function hasTwoFactor(db: Db, userId: string): Promise<boolean> {
  const [row] = await db.select({ on: hasTwoFactorOf(userId) }).from(ONE_ROW);
  return row?.on === true;
}

/** Stores a new pending secret (replacing an unfinished setup). The caller has checked 2FA is not on. */
export async function storePendingSecret(tx: Db, userId: string): Promise<void> {
  const sealed = await sealWithAppSecret(tx, SEAL_PURPOSE, (await otp()).generateSecret());
  await tx
    .insert(twoFactor)
    .values({ userId, secretEncrypted: sealed })
    .onConflictDoUpdate({
      target: twoFactor.userId,
      set: { secretEncrypted: sealed, enabledAt: null, lastUsedStep: null, createdAt: new Date() },
    });
}

/** The decrypted secret of the user's authenticator (enabled or pending). */
export async function readSecret(
  db: Db,
  userId: string,
  which: "enabled" | "pending",
): Promise<{ secret: string; lastUsedStep: number | null } | null> {
  const [row] = await db
    .select()
    .from(twoFactor)
    .where(and(eq(twoFactor.userId, userId), which === "enabled" ? isNotNull(twoFactor.enabledAt) : isNull(twoFactor.enabledAt)));
  if (!row) return null;
  return { secret: await openWithAppSecret(db, SEAL_PURPOSE, row.secretEncrypted), lastUsedStep: row.lastUsedStep };
}

/**
 * Accepts the step of a verified code once: the row is updated only when the step is later than the last
 * one used, so two requests racing with the same code cannot both pass.
 */
export async function claimStep(tx: Db, userId: string, step: number): Promise<boolean> {
  const rows = await tx
    .update(twoFactor)
    .set({ lastUsedStep: step })
    .where(and(eq(twoFactor.userId, userId), or(isNull(twoFactor.lastUsedStep), lt(twoFactor.lastUsedStep, step))))
    .returning({ userId: twoFactor.userId });
  return rows.length > 0;
}

/** Replaces the user's recovery codes; returns the new ones (the only time they exist in clear). */
export async function replaceRecoveryCodes(tx: Db, userId: string): Promise<string[]> {
  const codes = generateRecoveryCodes();
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await tx.insert(recoveryCodes).values(codes.map((code) => ({ userId, codeHash: hashCode(code) })));
  return codes;
}

/** Uses a recovery code: true once per code. */
export async function consumeRecoveryCode(tx: Db, userId: string, code: string): Promise<boolean> {
  const rows = await tx
    .update(recoveryCodes)
    .set({ usedAt: new Date() })
    .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, hashCode(code)), isNull(recoveryCodes.usedAt)))
    .returning({ id: recoveryCodes.id });
  return rows.length > 0;
}

/**
 * Checks a second factor for an enabled user: an app code (not replayed) or an unused recovery code.
 * Returns how it was proven, or null.
 */
export async function verifySecondFactor(tx: Db, userId: string, code: string): Promise<"authenticator app" | "recovery code" | null> {
  if (looksLikeTotp(code)) {
    const stored = await readSecret(tx, userId, "enabled");
    if (!stored) return null;
    const step = await verifyTotp(stored.secret, code, stored.lastUsedStep);
    return step !== null && (await claimStep(tx, userId, step)) ? "authenticator app" : null;
  }
  return (await consumeRecoveryCode(tx, userId, code)) ? "recovery code" : null;
}

/**
 * Recovery codes exist while a second factor does: they are the way back in for whoever loses the
 * authenticator app or the passkey device. A user without unused codes gets 10 (returned: the only time
 * they exist in clear); null when the user still has some, which keep working.
 */
export async function issueRecoveryCodesIfNone(tx: Db, userId: string): Promise<string[] | null> {
  return (await countRecoveryCodesLeft(tx, userId)) > 0 ? null : replaceRecoveryCodes(tx, userId);
}

/**
 * After a second factor is removed: the recovery codes go too when none is left (app off and no passkey).
 * Returns whether one is left and how many codes (used or not) were deleted.
 */
export async function dropRecoveryCodesWithoutSecondFactor(
  tx: Db,
  userId: string,
): Promise<{ secondFactorLeft: boolean; dropped: number }> {
  if (await hasTwoFactor(tx, userId)) return { secondFactorLeft: true, dropped: 0 };
  const rows = await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId)).returning({ id: recoveryCodes.id });
  return { secondFactorLeft: false, dropped: rows.length };
}

/**
 * Removes the authenticator app (on or waiting for its first code) and pending sign-ins; the recovery
 * codes stay while the user has a passkey. `removed`: an app that was on; `codesKept`: a passkey keeps them.
 */
export async function removeAuthenticatorApp(tx: Db, userId: string): Promise<{ removed: boolean; codesKept: boolean }> {
  const rows = await tx.delete(twoFactor).where(eq(twoFactor.userId, userId)).returning({ enabledAt: twoFactor.enabledAt });
  await tx.delete(signInChallenges).where(eq(signInChallenges.userId, userId));
  const { secondFactorLeft } = await dropRecoveryCodesWithoutSecondFactor(tx, userId);
  return { removed: rows.some((r) => r.enabledAt !== null), codesKept: secondFactorLeft };
}

/** The CLI's account recovery: the authenticator app, every recovery code and pending sign-in (passkeys: deleteAllPasskeys). */
export async function removeSecondFactors(tx: Db, userId: string): Promise<{ removed: boolean }> {
  const { removed } = await removeAuthenticatorApp(tx, userId);
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  return { removed };
}

// ---- The pending sign-in: a right password waiting for its second factor ----

const CHALLENGE_MINUTES = 5;

/** Stores a pending sign-in; returns the token for the (signed, httpOnly) cookie. */
export async function createChallenge(db: Db, userId: string): Promise<{ token: string; expiresAt: Date }> {
  const token = newSecretToken();
  const expiresAt = new Date(Date.now() + CHALLENGE_MINUTES * 60_000);
  await db.delete(signInChallenges).where(lt(signInChallenges.expiresAt, new Date()));
  await db.insert(signInChallenges).values({ tokenHash: hashSecretToken(token), userId, expiresAt });
  return { token, expiresAt };
}

/** The user a live pending sign-in belongs to, or null. */
export async function findChallenge(db: Db, token: string): Promise<{ userId: string } | null> {
  const [row] = await db
    .select({ userId: signInChallenges.userId })
    .from(signInChallenges)
    .where(and(eq(signInChallenges.tokenHash, hashSecretToken(token)), gt(signInChallenges.expiresAt, new Date())));
  return row ?? null;
}

/** Ends a pending sign-in; true only for the one request that ended it (single use). */
export async function consumeChallenge(tx: Db, token: string): Promise<boolean> {
  const rows = await tx
    .delete(signInChallenges)
    .where(and(eq(signInChallenges.tokenHash, hashSecretToken(token)), gt(signInChallenges.expiresAt, new Date())))
    .returning({ userId: signInChallenges.userId });
  return rows.length > 0;
}
