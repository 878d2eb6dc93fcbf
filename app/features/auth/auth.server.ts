import { setTimeout as sleep } from "node:timers/promises";
import { and, eq } from "drizzle-orm";
import type { Db } from "~/server/db/client.server";
import { account, user } from "~/server/db/schema.server";
import { recordAudit } from "~/server/audit.server";
import { ForbiddenError, parseOrThrow, RateLimitError, UnauthorizedError } from "~/server/errors.server";
import { getEnv } from "~/server/env.server";
import { hashPassword, verifyPassword } from "~/server/password.server";
import { enforceRateLimits, hitRateLimit, resetRateLimit } from "~/server/rate-limit.server";
import { clientIp } from "~/server/request.server";
import { verifyHumanToken } from "~/features/verification/verification.server";
import { USER_MESSAGES } from "~/features/users/user-schema";
import { loginSchema } from "./auth-schema";
import { createSession } from "./session.server";

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
 * Checks verification, rate limits and credentials; on success creates a session and returns the
 * Set-Cookie header. Errors: ValidationError 400, ForbiddenError 403 (verification), RateLimitError
 * 429, UnauthorizedError 401 (wrong email or password — one message for both).
 */
export async function signIn(db: Db, input: unknown, request: Request): Promise<{ userId: string; setCookie: string }> {
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
  await recordAudit(db, { actor: { id: row.id, email, ip }, action: "auth.sign-in", summary: "password" });
  return { userId: row.id, setCookie: await createSession(db, row.id, request) };
}
