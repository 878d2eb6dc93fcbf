import { randomUUID } from "node:crypto";
import { hashSecretToken, newSecretToken } from "~/server/secret-token.server";
import { and, eq, gt, isNull, like, lt } from "drizzle-orm";
import { z } from "zod";
import { passwordProblem } from "~/lib/password-policy";
import type { Db } from "~/server/db/client.server";
import { user, verification } from "~/server/db/schema.server";
import { ConflictError, parseOrThrow, ValidationError } from "~/server/errors.server";
import { isMailConfigured } from "~/server/mail-settings.server";
import { RESET_UNAVAILABLE } from "./auth-messages";
import { defineMailKind } from "~/server/mail-outbox.server";
import { logger } from "~/server/logger.server";
import { enforceRateLimits } from "~/server/rate-limit.server";
import { clientIp } from "~/server/request.server";
import { passwordUpdateSchema, RESET_LINK_INVALID, resetRequestSchema } from "./auth-schema";
import { verifyHumanToken } from "~/features/verification/verification.server";
import { readSiteSettings } from "~/features/settings/settings.server";
import { emailSiteUrl } from "~/features/settings/site-url.server";
import { setPassword, userForAdminAction } from "~/features/users/users.server";
import { USER_MESSAGES, USERS_FORBIDDEN } from "~/features/users/user-schema";
import { canManageUsers, type Actor } from "~/lib/permissions";
import { authorize } from "~/server/authorize.server";
import { recordAudit } from "~/server/audit.server";

const RESET_LINK_NEEDS_MAIL = "Email isn't set up, so no reset link can be sent. Set it up in Settings → Email first.";

/** Rows in `verification` whose identifier starts with this are password-reset tokens. */
const RESET_PREFIX = "password-reset:";
export const RESET_TOKEN_TTL_MS = 60 * 60_000;

/** The link a reset email carries. The token sits in the fragment, which browsers never send to servers. */
function resetLink(siteUrl: string, token: string): string {
  return `${siteUrl}/auth#type=recovery&token=${encodeURIComponent(token)}`;
}

/**
 * Starts a password reset. Answers the same whether or not the email belongs to someone: the email is
 * sent in the background so timing does not tell either. Verification and rate limits (per IP and
 * per address) apply to every request.
 */
export async function requestPasswordReset(db: Db, input: unknown, request: Request): Promise<void> {
  const { email, verificationToken } = parseOrThrow(resetRequestSchema, input);
  // Never claim a link was sent when none can be.
  if (!(await isMailConfigured(db))) throw new ConflictError(RESET_UNAVAILABLE);
  const ip = clientIp(request);
  await verifyHumanToken(db, verificationToken, ip);
  await enforceRateLimits(db, [
    { key: `reset:ip:${ip}`, limit: 10, windowSeconds: 15 * 60 },
    { key: `reset:account:${email}`, limit: 3, windowSeconds: 60 * 60 },
  ]);
  const [found] = await db
    .select({ id: user.id, email: user.email })
    .from(user)
    .where(and(eq(user.email, email), isNull(user.disabledAt)))
    .limit(1);
  if (!found) {
    logger.info("password reset requested for an unknown or disabled address");
    return;
  }
  // The email goes through the job runner (durable, retried, survives a restart). Its payload is the
  // user id only: the token is made when the email is sent, so it is never stored or logged in clear.
  await passwordResetMail.enqueue(db, { to: found.email, payload: { userId: found.id } });
}

/**
 * An administrator sends a user the same reset link the login page's 'Forgot password?' sends (the
 * user chooses their new password; the admin never learns it). Not for a disabled account.
 */
export async function sendPasswordResetFor(db: Db, actor: Actor | null, raw: unknown): Promise<{ email: string }> {
  authorize(actor, canManageUsers, USERS_FORBIDDEN);
  const found = await userForAdminAction(db, raw);
  if (found.disabledAt) throw new ValidationError(USER_MESSAGES.resetDisabled);
  if (!(await isMailConfigured(db))) throw new ConflictError(RESET_LINK_NEEDS_MAIL);
  await db.transaction(async (tx) => {
    await passwordResetMail.enqueue(tx, { to: found.email, payload: { userId: found.id } });
    await recordAudit(tx, { actor, action: "user.password.reset-link", target: { type: "user", id: found.id }, summary: found.email });
  });
  return { email: found.email };
}

/**
 * One reset email: a new token (replacing any earlier link of the user, one live link per user)
 * and the message. A retry after a send whose outcome was lost sends a fresh link; the latest works.
 */
export const passwordResetMail = defineMailKind("auth.password-reset", {
  label: "Password reset",
  schema: z.object({ userId: z.string().min(1) }),
  async render({ userId }, { db }) {
    const [found] = await db
      .select({ id: user.id, email: user.email, disabledAt: user.disabledAt })
      .from(user)
      .where(eq(user.id, userId))
      .limit(1);
    if (!found) return { skip: "Not sent: the account no longer exists." };
    if (found.disabledAt) return { skip: "Not sent: the account is disabled." };
    const token = newSecretToken();
    await db.transaction(async (tx) => {
      await tx.delete(verification).where(lt(verification.expiresAt, new Date()));
      await tx.delete(verification).where(and(like(verification.identifier, `${RESET_PREFIX}%`), eq(verification.value, found.id)));
      await tx.insert(verification).values({
        id: randomUUID(),
        identifier: `${RESET_PREFIX}${hashSecretToken(token)}`,
        value: found.id,
        expiresAt: new Date(Date.now() + RESET_TOKEN_TTL_MS),
      });
    });
    const settings = await readSiteSettings(db);
    return {
      senderName: settings.siteName,
      // The account's current address (it may have changed since the request).
      to: found.email,
      subject: "Reset your password",
      text: [
        "Someone (hopefully you) asked to reset the password of your account.",
        "",
        `Choose a new password here (the link works once, for one hour):`,
        resetLink(emailSiteUrl(settings), token),
        "",
        "If you did not ask for this, ignore this email: your password stays as it is.",
      ].join("\n"),
    };
  },
});

/**
 * Sets a new password with a reset token: checks verification, the match and the password policy,
 * consumes the token (single use) and ends every session of the user.
 */
export async function updatePasswordWithToken(db: Db, input: unknown, request: Request): Promise<{ userId: string }> {
  const { token, password, verificationToken } = parseOrThrow(passwordUpdateSchema, input);
  const ip = clientIp(request);
  await verifyHumanToken(db, verificationToken, ip);
  await enforceRateLimits(db, [{ key: `reset-update:ip:${ip}`, limit: 10, windowSeconds: 15 * 60 }]);
  const identifier = `${RESET_PREFIX}${hashSecretToken(token)}`;
  const [pending] = await db
    .select({ userId: verification.value, email: user.email })
    .from(verification)
    .innerJoin(user, eq(user.id, verification.value))
    .where(and(eq(verification.identifier, identifier), gt(verification.expiresAt, new Date())))
    .limit(1);
  if (!pending) throw new ValidationError(RESET_LINK_INVALID);
  // Policy first, so a rejected password does not use up the link.
  const problem = passwordProblem(password, pending.email);
  if (problem) throw new ValidationError(problem, { password: [problem] });
  const consumed = await db
    .delete(verification)
    .where(and(eq(verification.identifier, identifier), gt(verification.expiresAt, new Date())))
    .returning({ id: verification.id });
  if (consumed.length === 0) throw new ValidationError(RESET_LINK_INVALID);
  // setPassword also ends every session of the user.
  await setPassword(db, pending.email, password);
  logger.info({ userId: pending.userId }, "password changed through a reset link");
  return { userId: pending.userId };
}
