import { setTimeout as sleep } from "node:timers/promises";
import { and, eq } from "drizzle-orm";
import type { Db } from "~/server/db/client.server";
import { account, user } from "~/server/db/schema.server";
import { recordAudit } from "~/server/audit.server";
import { ForbiddenError, parseOrThrow, RateLimitError, UnauthorizedError, ValidationError } from "~/server/errors.server";
import { getEnv } from "~/server/env.server";
import { signedCookie } from "~/server/cookies.server";
import { hashPassword, verifyPassword } from "~/server/password.server";
import { enforceRateLimits, hitRateLimit, resetRateLimit } from "~/server/rate-limit.server";
import { clientIp, isSecureRequest } from "~/server/request.server";
import { verifyHumanToken } from "~/features/verification/verification.server";
import { USER_MESSAGES } from "~/features/users/user-schema";
import { loginSchema } from "./auth-schema";
import { PASSKEY_FAILED, passkeyAssertionSchema } from "./passkey-schema";
import { authenticationOptions, hasPasskey, relyingParty, verifyPasskeyAssertion } from "./passkeys.server";
import { createSession } from "./session.server";
import { TWO_FACTOR_EXPIRED, INVALID_CODE, twoFactorCodeSchema } from "./two-factor-schema";
import {
  consumeChallenge,
  createChallenge,
  findChallenge,
  hasAuthenticatorApp,
  hasTwoFactor,
  verifySecondFactor,
} from "./two-factor.server";

const INVALID_LOGIN = "Invalid login credentials";

/*
 * Limits that stop guessing without letting anyone lock the owner out (docs/decisions/0025-client-ip-and-login-limits.md):
 * - per IP: LOGIN_RATE_LIMIT_PER_IP attempts (default 10) in 15 minutes, whatever the account;
 * - per (account, IP): 5 attempts in 15 minutes, cleared by a successful sign-in from that address;
 * - per account, from everywhere: past LOGIN_ACCOUNT_SLOWDOWN_AFTER attempts (default 20) in an hour,
 *   each attempt waits longer (250 ms doubling, at most 8 s) — slower, never refused, so the right
 *   password from the owner's own address still signs in while an attack runs.
 */
const LOGIN_WINDOW_SECONDS = 15 * 60;
const ACCOUNT_WINDOW_SECONDS = 60 * 60;
const ACCOUNT_IP_LIMIT = 5;
const FIRST_DELAY_MS = 250;
const MAX_DELAY_MS = 8_000;

/** How long an attempt on an account waits, given the attempts on it this hour (this one included). */
export function loginDelayMs(accountAttempts: number, slowdownAfter: number): number {
  const over = accountAttempts - slowdownAfter;
  if (over <= 0) return 0;
  return Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** Math.min(over - 1, 16));
}

// Compared against when the email is unknown, so both paths cost one argon2 verification.
let dummyHash: Promise<string> | undefined;

/**
 * The limits of one sign-in step: refused per address and per account and address (so whoever knows the
 * password cannot lock the owner out from another client), and counted per account across addresses,
 * where the tries only slow every address down. `onLocked` records a refusal.
 */
async function throttleSignInStep(
  db: Db,
  ip: string,
  accountIpKey: string,
  accountKey: string,
  onLocked: (message: string) => Promise<unknown>,
): Promise<void> {
  const env = getEnv();
  try {
    await enforceRateLimits(db, [
      { key: `login:ip:${ip}`, limit: env.LOGIN_RATE_LIMIT_PER_IP, windowSeconds: LOGIN_WINDOW_SECONDS },
      { key: accountIpKey, limit: ACCOUNT_IP_LIMIT, windowSeconds: LOGIN_WINDOW_SECONDS },
    ]);
  } catch (error) {
    if (error instanceof RateLimitError) await onLocked(error.message);
    throw error;
  }
  const onAccount = await hitRateLimit(db, {
    key: accountKey,
    limit: env.LOGIN_ACCOUNT_SLOWDOWN_AFTER,
    windowSeconds: ACCOUNT_WINDOW_SECONDS,
  });
  const delay = loginDelayMs(onAccount.attempts, env.LOGIN_ACCOUNT_SLOWDOWN_AFTER);
  if (delay > 0) await sleep(delay);
}

/**
 * Checks verification, rate limits and credentials. On success: a session (Set-Cookie of the session),
 * or, when the account has two-factor authentication, a pending sign-in (Set-Cookie of the challenge,
 * `twoFactor: true`) that completeTwoFactorSignIn turns into a session. Errors: ValidationError 400,
 * ForbiddenError 403 (verification), RateLimitError 429, UnauthorizedError 401 (wrong email or password —
 * one message for both).
 */
export async function signIn(db: Db, input: unknown, request: Request): Promise<{ userId: string; setCookie: string; twoFactor: boolean }> {
  const { email, password, verificationToken } = parseOrThrow(loginSchema, input);
  const ip = clientIp(request);
  await verifyHumanToken(db, verificationToken, ip);
  const accountIpKey = `login:account-ip:${email}|${ip}`;
  await throttleSignInStep(db, ip, accountIpKey, `login:account:${email}`, (message) =>
    recordAudit(db, { actor: null, email, ip, action: "auth.sign-in.locked", summary: message }),
  );
  const [row] = await db
    .select({ id: user.id, passwordHash: account.password, disabledAt: user.disabledAt })
    .from(user)
    .innerJoin(account, and(eq(account.userId, user.id), eq(account.providerId, "credential")))
    .where(eq(user.email, email))
    .limit(1);
  dummyHash ??= hashPassword("dummy password for timing");
  const ok = await verifyPassword(row?.passwordHash ?? (await dummyHash), password);
  if (!row || !ok) {
    await recordAudit(db, {
      actor: row ? { id: row.id, email } : null,
      email,
      ip,
      action: "auth.sign-in.failed",
      summary: row ? "wrong password" : "unknown email",
    });
    throw new UnauthorizedError(INVALID_LOGIN);
  }
  // Said only to whoever knows the password: the refusal tells no one else the account exists.
  if (row.disabledAt) {
    await recordAudit(db, { actor: { id: row.id, email, ip }, action: "auth.sign-in.disabled", summary: "account disabled" });
    throw new ForbiddenError(USER_MESSAGES.disabled);
  }
  await resetRateLimit(db, accountIpKey);
  if (await hasTwoFactor(db, row.id)) {
    const { token, expiresAt } = await createChallenge(db, row.id);
    const cookie = await challengeCookie(db);
    return {
      userId: row.id,
      twoFactor: true,
      setCookie: await cookie.serialize(token, { expires: expiresAt, secure: isSecureRequest(request) }),
    };
  }
  await recordAudit(db, { actor: { id: row.id, email, ip }, action: "auth.sign-in", summary: "password" });
  return { userId: row.id, twoFactor: false, setCookie: await createSession(db, row.id, request) };
}

// ---- The second step (two-factor authentication): the pending sign-in's cookie, then a code ----

/** Signed with the app secret and httpOnly; the token it carries is stored (hashed) in sign_in_challenges. */
const challengeCookie = signedCookie("2fa", { path: "/", httpOnly: true, sameSite: "lax" });

/** The pending sign-in's token from the request, if its cookie is there and genuine. */
async function challengeToken(db: Db, request: Request): Promise<string | null> {
  const value: unknown = await (await challengeCookie(db)).parse(request.headers.get("cookie"));
  return typeof value === "string" && value.length <= 100 ? value : null;
}

/** 'Back to login' from the code step: the pending sign-in ends; returns the Set-Cookie that clears its cookie. */
export async function cancelPendingSignIn(db: Db, request: Request): Promise<string> {
  const token = await challengeToken(db, request);
  if (token) await consumeChallenge(db, token);
  return clearChallengeCookie(db, request);
}

async function clearChallengeCookie(db: Db, request: Request): Promise<string> {
  return (await challengeCookie(db)).serialize("", { maxAge: 0, secure: isSecureRequest(request) });
}

/**
 * The live pending sign-in this request carries (the /auth page then asks for the second factor), and
 * whether its user can answer with a passkey; null when there is none.
 */
export async function pendingSecondFactor(db: Db, request: Request): Promise<{ passkey: boolean; app: boolean } | null> {
  const token = await challengeToken(db, request);
  const pending = token ? await findChallenge(db, token) : null;
  if (!pending) return null;
  const [passkey, app] = await Promise.all([hasPasskey(db, pending.userId), hasAuthenticatorApp(db, pending.userId)]);
  return { passkey, app };
}

/**
 * The second factor of a pending sign-in: an authenticator code (never the same step twice) or a
 * recovery code (once). Limited like the password, per IP and per account; every failure is audited.
 * On success the pending sign-in is used up and the session starts: returns its Set-Cookie headers.
 * Errors: ValidationError 400, UnauthorizedError 401 (wrong or expired), RateLimitError 429.
 */
export async function completeTwoFactorSignIn(db: Db, input: unknown, request: Request): Promise<{ userId: string; setCookies: string[] }> {
  const { code } = parseOrThrow(twoFactorCodeSchema, input);
  return completeSecondFactor(db, request, INVALID_CODE, "wrong authentication code", (tx, userId) => verifySecondFactor(tx, userId, code));
}

/** The second factor proven with one of the pending user's passkeys (instead of a code). */
export async function completePasskeySecondFactor(
  db: Db,
  input: unknown,
  request: Request,
): Promise<{ userId: string; setCookies: string[] }> {
  const { credential } = parseOrThrow(passkeyAssertionSchema, input);
  const rp = await relyingParty();
  return completeSecondFactor(db, request, PASSKEY_FAILED, "passkey not accepted", async (tx, userId) => {
    const proven = await verifyPasskeyAssertion(tx, credential, "second-factor", userId, rp);
    return proven ? `passkey "${proven.name}"` : null;
  });
}

/**
 * The pending sign-in's second step, whatever proves it: limits, the proof and the pending sign-in used up
 * in one transaction, the audit row, then the session.
 */
async function completeSecondFactor(
  db: Db,
  request: Request,
  refusal: string,
  failureSummary: string,
  prove: (tx: Db, userId: string) => Promise<string | null>,
): Promise<{ userId: string; setCookies: string[] }> {
  const ip = clientIp(request);
  const token = await challengeToken(db, request);
  const pending = token ? await findChallenge(db, token) : null;
  if (!token || !pending) throw new UnauthorizedError(TWO_FACTOR_EXPIRED);
  const [who] = await db.select({ email: user.email }).from(user).where(eq(user.id, pending.userId));
  const actor = { id: pending.userId, email: who?.email, ip };
  // Like the password step: refused per account and address, so whoever knows the password cannot lock
  // the owner out from another client; across addresses the tries are counted and only slowed down.
  const accountIpKey = `login:2fa:${pending.userId}|${ip}`;
  await throttleSignInStep(db, ip, accountIpKey, `login:2fa-account:${pending.userId}`, (message) =>
    recordAudit(db, { actor, action: "auth.sign-in.locked", summary: `second factor: ${message}` }),
  );
  const method = await refusedAsNull(
    db.transaction(async (tx) => {
      const proven = await prove(tx, pending.userId);
      if (!proven || !(await consumeChallenge(tx, token))) return null;
      await recordAudit(tx, { actor, action: "auth.sign-in", summary: `password and ${proven}` });
      return proven;
    }),
  );
  if (!method) {
    await recordAudit(db, { actor, action: "auth.sign-in.2fa-failed", summary: failureSummary });
    throw new UnauthorizedError(refusal);
  }
  await resetRateLimit(db, accountIpKey);
  await resetRateLimit(db, `login:2fa-account:${pending.userId}`);
  return {
    userId: pending.userId,
    setCookies: [await createSession(db, pending.userId, request), await clearChallengeCookie(db, request)],
  };
}

/** An expired or replayed passkey challenge, or an answer that cannot be read, fails like a wrong code. */
async function refusedAsNull<T>(work: Promise<T | null>): Promise<T | null> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof UnauthorizedError || error instanceof ValidationError) return null;
    throw error;
  }
}

// ---- Passkeys (docs/decisions/0035-passkeys.md) ----

/** Options are cheap to ask for but each one is a stored row: limited per address. */
const PASSKEY_OPTIONS_PER_IP = 60;

/**
 * WebAuthn options for /auth: signing in without a password (anyone may ask), or the second factor of the
 * pending sign-in this browser holds (only that user's passkeys are allowed).
 */
export async function passkeySignInOptions(db: Db, purpose: "sign-in" | "second-factor", request: Request) {
  await enforceRateLimits(db, [
    { key: `passkey-options:${clientIp(request)}`, limit: PASSKEY_OPTIONS_PER_IP, windowSeconds: LOGIN_WINDOW_SECONDS },
  ]);
  const rp = await relyingParty();
  if (purpose === "sign-in") return authenticationOptions(db, "sign-in", null, rp);
  const token = await challengeToken(db, request);
  const pending = token ? await findChallenge(db, token) : null;
  if (!pending) throw new UnauthorizedError(TWO_FACTOR_EXPIRED);
  return authenticationOptions(db, "second-factor", pending.userId, rp);
}

/**
 * 'Sign in with a passkey': a discoverable passkey with user verification is both factors at once, so the
 * session starts without a password. Limited per IP like the password; failures are audited.
 * Errors: ValidationError 400, UnauthorizedError 401, ForbiddenError 403 (disabled account), RateLimitError 429.
 */
export async function signInWithPasskey(db: Db, input: unknown, request: Request): Promise<{ userId: string; setCookie: string }> {
  const { credential } = parseOrThrow(passkeyAssertionSchema, input);
  const ip = clientIp(request);
  await enforceRateLimits(db, [{ key: `login:ip:${ip}`, limit: getEnv().LOGIN_RATE_LIMIT_PER_IP, windowSeconds: LOGIN_WINDOW_SECONDS }]);
  const rp = await relyingParty();
  const found = await refusedAsNull(
    db.transaction(async (tx) => {
      const proven = await verifyPasskeyAssertion(tx, credential, "sign-in", null, rp);
      if (!proven) return null;
      const [row] = await tx.select({ email: user.email, disabledAt: user.disabledAt }).from(user).where(eq(user.id, proven.userId));
      if (!row) return null;
      const actor = { id: proven.userId, email: row.email, ip };
      if (row.disabledAt) return { actor, disabled: true };
      await recordAudit(tx, { actor, action: "auth.sign-in", summary: `passkey "${proven.name}"` });
      return { actor, disabled: false };
    }),
  );
  if (!found) {
    await recordAudit(db, { actor: null, ip, action: "auth.sign-in.failed", summary: "passkey not accepted" });
    throw new UnauthorizedError(PASSKEY_FAILED);
  }
  if (found.disabled) {
    await recordAudit(db, { actor: found.actor, action: "auth.sign-in.disabled", summary: "account disabled (passkey)" });
    throw new ForbiddenError(USER_MESSAGES.disabled);
  }
  return { userId: found.actor.id, setCookie: await createSession(db, found.actor.id, request) };
}
