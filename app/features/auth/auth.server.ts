import { setTimeout as sleep } from "node:timers/promises";
import { createCookie, type Cookie } from "react-router";
import { and, eq } from "drizzle-orm";
import type { Db } from "~/server/db/client.server";
import { account, user } from "~/server/db/schema.server";
import { recordAudit } from "~/server/audit.server";
import { ForbiddenError, parseOrThrow, RateLimitError, UnauthorizedError } from "~/server/errors.server";
import { getEnv } from "~/server/env.server";
import { getAppSecret } from "~/server/secret.server";
import { hashPassword, verifyPassword } from "~/server/password.server";
import { enforceRateLimits, hitRateLimit, resetRateLimit } from "~/server/rate-limit.server";
import { clientIp, isSecureRequest } from "~/server/request.server";
import { verifyHumanToken } from "~/features/verification/verification.server";
import { USER_MESSAGES } from "~/features/users/user-schema";
import { loginSchema } from "./auth-schema";
import { createSession } from "./session.server";
import { TWO_FACTOR_EXPIRED, INVALID_CODE, twoFactorCodeSchema } from "./two-factor-schema";
import { consumeChallenge, createChallenge, findChallenge, hasTwoFactor, verifySecondFactor } from "./two-factor.server";

const INVALID_LOGIN = "Invalid login credentials";

/*
 * Limits that stop guessing without letting anyone lock the owner out (docs/decisions/15b-login-limits.md):
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
  const env = getEnv();
  const accountIpKey = `login:account-ip:${email}|${ip}`;
  try {
    await enforceRateLimits(db, [
      { key: `login:ip:${ip}`, limit: env.LOGIN_RATE_LIMIT_PER_IP, windowSeconds: LOGIN_WINDOW_SECONDS },
      { key: accountIpKey, limit: ACCOUNT_IP_LIMIT, windowSeconds: LOGIN_WINDOW_SECONDS },
    ]);
  } catch (error) {
    if (error instanceof RateLimitError)
      await recordAudit(db, { actor: null, email, ip, action: "auth.sign-in.locked", summary: error.message });
    throw error;
  }
  // Counted, never refused: the ceiling only slows every address down.
  const onAccount = await hitRateLimit(db, {
    key: `login:account:${email}`,
    limit: env.LOGIN_ACCOUNT_SLOWDOWN_AFTER,
    windowSeconds: ACCOUNT_WINDOW_SECONDS,
  });
  const delay = loginDelayMs(onAccount.attempts, env.LOGIN_ACCOUNT_SLOWDOWN_AFTER);
  if (delay > 0) await sleep(delay);
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

// ---- The second step (issue 15): the pending sign-in's cookie, then a code ----

let challenge: Cookie | undefined;

/** Signed with the app secret and httpOnly; the token it carries is stored (hashed) in sign_in_challenges. */
async function challengeCookie(db: Db): Promise<Cookie> {
  challenge ??= createCookie("2fa", { path: "/", httpOnly: true, sameSite: "lax", secrets: [await getAppSecret(db)] });
  return challenge;
}

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

/** Whether the request carries a live pending sign-in (the /auth page then asks for the code). */
export async function hasPendingTwoFactor(db: Db, request: Request): Promise<boolean> {
  const token = await challengeToken(db, request);
  return token !== null && (await findChallenge(db, token)) !== null;
}

/**
 * The second factor of a pending sign-in: an authenticator code (never the same step twice) or a
 * recovery code (once). Limited like the password, per IP and per account; every failure is audited.
 * On success the pending sign-in is used up and the session starts: returns its Set-Cookie headers.
 * Errors: ValidationError 400, UnauthorizedError 401 (wrong or expired), RateLimitError 429.
 */
export async function completeTwoFactorSignIn(db: Db, input: unknown, request: Request): Promise<{ userId: string; setCookies: string[] }> {
  const { code } = parseOrThrow(twoFactorCodeSchema, input);
  const ip = clientIp(request);
  const token = await challengeToken(db, request);
  const pending = token ? await findChallenge(db, token) : null;
  if (!token || !pending) throw new UnauthorizedError(TWO_FACTOR_EXPIRED);
  const [who] = await db.select({ email: user.email }).from(user).where(eq(user.id, pending.userId));
  const actor = { id: pending.userId, email: who?.email, ip };
  const env = getEnv();
  try {
    await enforceRateLimits(db, [
      { key: `login:ip:${ip}`, limit: env.LOGIN_RATE_LIMIT_PER_IP, windowSeconds: LOGIN_WINDOW_SECONDS },
      { key: `login:2fa:${pending.userId}`, limit: ACCOUNT_IP_LIMIT, windowSeconds: LOGIN_WINDOW_SECONDS },
    ]);
  } catch (error) {
    if (error instanceof RateLimitError)
      await recordAudit(db, { actor, action: "auth.sign-in.locked", summary: `second factor: ${error.message}` });
    throw error;
  }
  const method = await db.transaction(async (tx) => {
    const proven = await verifySecondFactor(tx, pending.userId, code);
    if (!proven || !(await consumeChallenge(tx, token))) return null;
    await recordAudit(tx, { actor, action: "auth.sign-in", summary: `password and ${proven}` });
    return proven;
  });
  if (!method) {
    await recordAudit(db, { actor, action: "auth.sign-in.2fa-failed", summary: "wrong authentication code" });
    throw new UnauthorizedError(INVALID_CODE);
  }
  await resetRateLimit(db, `login:2fa:${pending.userId}`);
  return {
    userId: pending.userId,
    setCookies: [await createSession(db, pending.userId, request), await clearChallengeCookie(db, request)],
  };
}
