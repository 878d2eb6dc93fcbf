import { and, eq } from "drizzle-orm";
import type { Db } from "~/server/db/client.server";
import { account, user } from "~/server/db/schema.server";
import { parseOrThrow, UnauthorizedError } from "~/server/errors.server";
import { getEnv } from "~/server/env.server";
import { hashPassword, verifyPassword } from "~/server/password.server";
import { enforceRateLimits, resetRateLimit } from "~/server/rate-limit.server";
import { clientIp } from "~/server/request.server";
import { verifyHumanToken } from "~/features/verification/verification.server";
import { loginSchema } from "./auth-schema";
import { createSession } from "./session.server";

const INVALID_LOGIN = "Invalid login credentials";

// Per IP: LOGIN_RATE_LIMIT_PER_IP (default 10) attempts / 15 min; per account: 5 / 15 min (cleared on success).
const LOGIN_WINDOW_SECONDS = 15 * 60;

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
  await enforceRateLimits(db, [
    { key: `login:ip:${ip}`, limit: getEnv().LOGIN_RATE_LIMIT_PER_IP, windowSeconds: LOGIN_WINDOW_SECONDS },
    { key: `login:account:${email}`, limit: 5, windowSeconds: LOGIN_WINDOW_SECONDS },
  ]);
  const [row] = await db
    .select({ id: user.id, passwordHash: account.password })
    .from(user)
    .innerJoin(account, and(eq(account.userId, user.id), eq(account.providerId, "credential")))
    .where(eq(user.email, email))
    .limit(1);
  dummyHash ??= hashPassword("dummy password for timing");
  const ok = await verifyPassword(row?.passwordHash ?? (await dummyHash), password);
  if (!row || !ok) throw new UnauthorizedError(INVALID_LOGIN);
  await resetRateLimit(db, `login:account:${email}`);
  return { userId: row.id, setCookie: await createSession(db, row.id, request) };
}
