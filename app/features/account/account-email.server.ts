import { hashSecretToken, newSecretToken } from "~/server/secret-token.server";
import { and, eq, gt } from "drizzle-orm";
import { z } from "zod";
import type { SessionUser } from "~/features/auth/session.server";
import { ENTER_CODE, INVALID_CODE } from "~/features/auth/two-factor-schema";
import { hasTwoFactor, verifySecondFactor } from "~/features/auth/two-factor.server";
import { readSiteSettings } from "~/features/settings/settings.server";
import { emailSiteUrl } from "~/features/settings/site-url.server";
import { changeSignInEmail, emailTakenMessage } from "~/features/users/users.server";
import { canEdit } from "~/lib/permissions";
import { recordAudit } from "~/server/audit.server";
import { authorize } from "~/server/authorize.server";
import type { Db } from "~/server/db/client.server";
import { user, verification } from "~/server/db/schema.server";
import { ConflictError, parseOrThrow, ValidationError } from "~/server/errors.server";
import { defineMailKind } from "~/server/mail-outbox.server";
import { isMailConfigured } from "~/server/mail-settings.server";
import { enforceRateLimits } from "~/server/rate-limit.server";
import { clientIp } from "~/server/request.server";
import { emailChangeSchema, emailChangeTokenSchema } from "./account-schema";
import { ACCOUNT_FORBIDDEN, checkCurrentPassword } from "./account.server";

/**
 * Changing one's own sign-in email on /admin/account (docs/decisions/0065-account-email-change.md).
 * With mail working, the new address must prove it is reachable: a confirmation link (single use,
 * 24 hours) is sent to it and the change applies when the link is opened. Without mail no link can
 * arrive, so the change applies at once, after the password and (when the user has one) the second
 * factor. Either way the old address gets a notice when mail works, and the audit log has the change.
 */

export const EMAIL_CHANGE_TTL_MS = 24 * 60 * 60_000;
export const EMAIL_CHANGE_LINK_INVALID = "This link is not valid or has expired. Request the change again on your Account page.";
export const SAME_EMAIL = "That is already your sign-in email.";

/**
 * A pending change is a `verification` row: its id names the user (one pending change per user, a new
 * request replaces it), its identifier holds the token's hash (the token itself is only in the email)
 * and its value the new address.
 */
const pendingId = (userId: string) => `email-change:${userId}`;
const PENDING_ID_PREFIX = "email-change:";
const tokenIdentifier = (token: string) => `email-change-token:${hashSecretToken(token)}`;

function confirmLink(siteUrl: string, token: string): string {
  return `${siteUrl}/account/confirm-email?token=${encodeURIComponent(token)}`;
}

/** Stores the user's pending change (replacing an earlier one) and returns its token, which only the email holds. */
export async function storePendingEmailChange(tx: Db, userId: string, newEmail: string): Promise<string> {
  const token = newSecretToken();
  await tx.delete(verification).where(eq(verification.id, pendingId(userId)));
  await tx.insert(verification).values({
    id: pendingId(userId),
    identifier: tokenIdentifier(token),
    value: newEmail,
    expiresAt: new Date(Date.now() + EMAIL_CHANGE_TTL_MS),
  });
  return token;
}

/**
 * The confirmation email to the new address. The token is made when the email is sent (the outbox
 * stores no secret), replacing any earlier link of the user: the latest link works.
 */
export const emailChangeConfirmMail = defineMailKind("account.email-confirm", {
  label: "Sign-in email confirmation",
  schema: z.object({ userId: z.string().min(1), newEmail: z.string().min(1) }),
  async render({ userId, newEmail }, { db }) {
    const [found] = await db.select({ disabledAt: user.disabledAt }).from(user).where(eq(user.id, userId)).limit(1);
    if (!found) return { skip: "Not sent: the account no longer exists." };
    if (found.disabledAt) return { skip: "Not sent: the account is disabled." };
    const token = await db.transaction((tx) => storePendingEmailChange(tx, userId, newEmail));
    const settings = await readSiteSettings(db);
    return {
      senderName: settings.siteName,
      to: newEmail,
      subject: "Confirm your new sign-in email",
      text: [
        `Someone (hopefully you) asked to make ${newEmail} the sign-in email of an account on ${settings.siteName}.`,
        "",
        "Confirm it here (the link works once, for 24 hours):",
        confirmLink(emailSiteUrl(settings), token),
        "",
        "If you did not ask for this, ignore this email: nothing changes.",
      ].join("\n"),
    };
  },
});

export type EmailChangeOutcome = { applied: true; email: string } | { applied: false; sentTo: string };

/**
 * "Change email": the current password, then either the confirmation link (mail works) or the change
 * itself (no mail; with two-factor on, a code of the second factor too). Guesses of the password or
 * code are limited like on the sign-in form.
 */
export async function requestEmailChange(db: Db, actor: SessionUser | null, raw: unknown): Promise<EmailChangeOutcome> {
  authorize(actor, canEdit, ACCOUNT_FORBIDDEN);
  const input = parseOrThrow(emailChangeSchema, raw);
  await enforceRateLimits(db, [{ key: `account-email:${actor.id}`, limit: 5, windowSeconds: 15 * 60 }]);
  await checkCurrentPassword(db, actor, input.currentPassword);
  if (input.newEmail === actor.email) throw new ValidationError(SAME_EMAIL, { newEmail: [SAME_EMAIL] });
  const [taken] = await db.select({ id: user.id }).from(user).where(eq(user.email, input.newEmail)).limit(1);
  if (taken) throw new ConflictError(emailTakenMessage(input.newEmail));

  if (await isMailConfigured(db)) {
    await db.transaction(async (tx) => {
      await emailChangeConfirmMail.enqueue(tx, { to: input.newEmail, payload: { userId: actor.id, newEmail: input.newEmail } });
      await recordAudit(tx, {
        actor,
        action: "account.email.request",
        target: { type: "user", id: actor.id },
        summary: `confirmation link sent to ${input.newEmail}`,
      });
    });
    return { applied: false, sentTo: input.newEmail };
  }

  const needsCode = await hasTwoFactor(db, actor.id);
  if (needsCode && !input.code) throw new ValidationError(ENTER_CODE, { code: [ENTER_CODE] });
  await db.transaction(async (tx) => {
    if (needsCode && (await verifySecondFactor(tx, actor.id, input.code ?? "")) === null) {
      throw new ValidationError(INVALID_CODE, { code: [INVALID_CODE] });
    }
    await tx.delete(verification).where(eq(verification.id, pendingId(actor.id)));
    // No notice to the old address: without mail it could not be sent (the audit log keeps the change).
    await changeSignInEmail(tx, actor, input.newEmail, { actor, action: "account.email.change", notify: false });
  });
  return { applied: true, email: input.newEmail };
}

/** The change waiting for its link to be opened, for the account page. */
export async function readPendingEmailChange(db: Db, actor: SessionUser | null): Promise<{ email: string; expiresAt: Date } | null> {
  authorize(actor, canEdit, ACCOUNT_FORBIDDEN);
  const [row] = await db
    .select({ email: verification.value, expiresAt: verification.expiresAt })
    .from(verification)
    .where(and(eq(verification.id, pendingId(actor.id)), gt(verification.expiresAt, new Date())));
  return row ?? null;
}

/**
 * Opening the confirmation link (its page's button): uses the token up and applies the change. It needs
 * no session (the link may be opened on another device): the password was checked when it was asked
 * for, and the token proves the new address is the person's. A refused change (the address was taken
 * meanwhile) keeps the link.
 */
export async function confirmEmailChange(db: Db, raw: unknown, request: Request): Promise<{ email: string }> {
  const { token } = parseOrThrow(emailChangeTokenSchema, raw, EMAIL_CHANGE_LINK_INVALID);
  await enforceRateLimits(db, [{ key: `email-confirm:ip:${clientIp(request)}`, limit: 20, windowSeconds: 15 * 60 }]);
  return db.transaction(async (tx) => {
    const [pending] = await tx
      .delete(verification)
      .where(and(eq(verification.identifier, tokenIdentifier(token)), gt(verification.expiresAt, new Date())))
      .returning({ id: verification.id, email: verification.value });
    if (!pending || !pending.id.startsWith(PENDING_ID_PREFIX)) throw new ValidationError(EMAIL_CHANGE_LINK_INVALID);
    const userId = pending.id.slice(PENDING_ID_PREFIX.length);
    const [found] = await tx.select({ id: user.id, email: user.email, disabledAt: user.disabledAt }).from(user).where(eq(user.id, userId));
    if (!found || found.disabledAt) throw new ValidationError(EMAIL_CHANGE_LINK_INVALID);
    await changeSignInEmail(tx, found, pending.email, {
      actor: { id: found.id, email: found.email, ip: clientIp(request) },
      action: "account.email.change",
    });
    return { email: pending.email };
  });
}
