import { createHash } from "node:crypto";
import { createChallenge, verifySolution } from "altcha-lib";
import { lt } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "~/server/db/client.server";
import { usedVerificationTokens } from "~/server/db/schema.server";
import { getEnv } from "~/server/env.server";
import { ForbiddenError } from "~/server/errors.server";
import { logger } from "~/server/logger.server";
import { getAppSecret } from "~/server/secret.server";
import type { VerificationConfig } from "./verification";

const CHALLENGE_TTL_MS = 10 * 60_000;

const VERIFICATION_FAILED = "Verification failed. Please complete the security verification again.";

/** Which verifier is active, and what the browser needs to show it. */
export function getVerificationConfig(): VerificationConfig {
  const env = getEnv();
  return env.TURNSTILE_SITE_KEY
    ? { provider: "turnstile", siteKey: env.TURNSTILE_SITE_KEY }
    : { provider: "altcha", challengeUrl: "/api/verification/challenge" };
}

/** A signed ALTCHA proof-of-work challenge (GET /api/verification/challenge). */
export async function createAltchaChallenge(db: Db) {
  return createChallenge({
    hmacKey: await getAppSecret(db),
    maxNumber: getEnv().ALTCHA_MAX_NUMBER,
    expires: new Date(Date.now() + CHALLENGE_TTL_MS),
  });
}

const turnstileResponse = z.object({ success: z.boolean(), "error-codes": z.array(z.string()).optional() });

async function verifyTurnstile(token: string, ip: string | undefined): Promise<boolean> {
  const env = getEnv();
  const body = new URLSearchParams({ secret: env.TURNSTILE_SECRET_KEY ?? "", response: token });
  if (ip && ip !== "unknown") body.set("remoteip", ip);
  try {
    const response = await fetch(env.TURNSTILE_VERIFY_URL, { method: "POST", body, signal: AbortSignal.timeout(5000) });
    const parsed = turnstileResponse.safeParse(await response.json());
    if (!parsed.success) {
      logger.warn("turnstile answered with an unexpected body");
      return false;
    }
    if (!parsed.data.success) logger.info({ codes: parsed.data["error-codes"] }, "turnstile rejected a token");
    return parsed.data.success;
  } catch (error) {
    logger.error({ err: error }, "turnstile verification request failed");
    return false;
  }
}

/** Records a spent challenge (its identity, not the text it came in); false when it had been spent before. */
async function markUsed(db: Db, identity: string): Promise<boolean> {
  const tokenHash = createHash("sha256").update(identity).digest("base64url");
  await db.delete(usedVerificationTokens).where(lt(usedVerificationTokens.expiresAt, new Date()));
  const inserted = await db
    .insert(usedVerificationTokens)
    .values({ tokenHash, expiresAt: new Date(Date.now() + CHALLENGE_TTL_MS) })
    .onConflictDoNothing()
    .returning({ tokenHash: usedVerificationTokens.tokenHash });
  return inserted.length === 1;
}

// The ALTCHA token is base64 JSON; what identifies the solved challenge is its server-issued salt (random and
// signed), not the token's text, which can be re-encoded (spacing, key order, extra keys) without breaking it.
const altchaPayload = z.object({
  algorithm: z.enum(["SHA-1", "SHA-256", "SHA-512"]),
  challenge: z.string().max(200),
  number: z.number().int().nonnegative(),
  salt: z.string().min(1).max(300),
  signature: z.string().max(200),
});

function parseAltchaToken(token: string): z.infer<typeof altchaPayload> | undefined {
  try {
    return altchaPayload.parse(JSON.parse(Buffer.from(token, "base64").toString("utf8")));
  } catch {
    return undefined;
  }
}

/** Checks a token with the active provider; returns what identifies it for single use, or undefined when invalid. */
async function checkToken(db: Db, token: string, ip: string | undefined): Promise<string | undefined> {
  if (getVerificationConfig().provider === "turnstile") return (await verifyTurnstile(token, ip)) ? `turnstile:${token}` : undefined;
  const payload = parseAltchaToken(token);
  if (!payload) return undefined;
  const valid = await verifySolution(payload, await getAppSecret(db), true).catch(() => false);
  return valid ? `altcha:${payload.salt}` : undefined;
}

/**
 * Checks a human-verification token from a form or request body. Each challenge works once and expires.
 * Throws ForbiddenError (403) when it is missing, invalid, expired or reused.
 */
export async function verifyHumanToken(db: Db, token: string | null | undefined, ip?: string): Promise<void> {
  if (!token || token.length > 4096) throw new ForbiddenError(VERIFICATION_FAILED);
  const identity = await checkToken(db, token, ip);
  if (!identity || !(await markUsed(db, identity))) throw new ForbiddenError(VERIFICATION_FAILED);
}
