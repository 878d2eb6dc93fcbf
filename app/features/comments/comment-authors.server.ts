import { hashSecretToken, newSecretToken } from "~/server/secret-token.server";
import { and, asc, eq, gt, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import { z } from "zod";
import { readSiteSettings } from "~/features/settings/settings.server";
import { emailSiteUrl } from "~/features/settings/site-url.server";
import type { Db } from "~/server/db/client.server";
import { commentAuthors } from "~/server/db/schema.server";
import { ValidationError } from "~/server/errors.server";
import { logger } from "~/server/logger.server";
import { defineMailKind } from "~/server/mail-outbox.server";
import { enforceRateLimits } from "~/server/rate-limit.server";

/**
 * Commenters' emails: confirmed by the link emailed after a comment (when mail works), and trusted by
 * a moderator ("Auto-approve this person") once confirmed. docs/decisions/0081-trusted-commenters.md
 */

/** How long a confirmation link works. */
export const COMMENT_CONFIRM_TTL_MS = 48 * 3_600_000;
/** At most one confirmation email a day per address, however many comments it sends. */
const CONFIRM_RESEND_MS = 24 * 3_600_000;

export const COMMENT_CONFIRM_INVALID =
  "This confirmation link is not valid or has expired. A new one comes with your next comment (at most one a day).";

/** Trust holds only for a confirmed address (a row edited by hand cannot trust an unconfirmed one). */
export const trustedAuthor = and(isNotNull(commentAuthors.confirmedAt), isNotNull(commentAuthors.trustedAt));

export async function isTrustedCommenter(db: Db, email: string): Promise<boolean> {
  const [row] = await db
    .select({ email: commentAuthors.email })
    .from(commentAuthors)
    .where(and(eq(commentAuthors.email, email), trustedAuthor));
  return Boolean(row);
}

/**
 * Queues "Confirm your email" for an address that is not confirmed yet, unless one was queued in the
 * last day; in the caller's transaction, so the email exists exactly when the comment does.
 */
export async function queueCommentConfirmation(tx: Db, email: string): Promise<boolean> {
  const [row] = await tx
    .insert(commentAuthors)
    .values({ email, confirmSentAt: new Date() })
    .onConflictDoUpdate({
      target: commentAuthors.email,
      set: { confirmSentAt: new Date() },
      setWhere: and(
        isNull(commentAuthors.confirmedAt),
        or(isNull(commentAuthors.confirmSentAt), lt(commentAuthors.confirmSentAt, new Date(Date.now() - CONFIRM_RESEND_MS))),
      ),
    })
    .returning({ email: commentAuthors.email });
  if (!row) return false;
  await commentConfirmMail.enqueue(tx, { to: email, payload: { email } });
  return true;
}

/** A new confirmation token for an address not confirmed yet (replacing the one before), or null. */
export async function issueConfirmToken(db: Db, email: string): Promise<string | null> {
  const token = newSecretToken();
  const [row] = await db
    .update(commentAuthors)
    .set({ confirmTokenHash: hashSecretToken(token), confirmExpiresAt: new Date(Date.now() + COMMENT_CONFIRM_TTL_MS) })
    .where(and(eq(commentAuthors.email, email), isNull(commentAuthors.confirmedAt)))
    .returning({ email: commentAuthors.email });
  return row ? token : null;
}

/**
 * The link is made when the email is sent (the outbox stores no secret); only its hash is kept, and a
 * newer link replaces an older one.
 */
export const commentConfirmMail = defineMailKind("comments.confirm-email", {
  label: "Commenter email confirmation",
  schema: z.object({ email: z.string().min(1) }),
  async render({ email }, { db }) {
    const token = await issueConfirmToken(db, email);
    if (!token) return { skip: "Not sent: the email is confirmed already." };
    const settings = await readSiteSettings(db);
    const link = `${new URL("/comments/confirm", emailSiteUrl(settings)).href}?token=${encodeURIComponent(token)}`;
    return {
      to: email,
      senderName: settings.siteName,
      subject: `Confirm your email for comments on ${settings.siteName}`,
      text: [
        `Someone (hopefully you) commented on ${settings.siteName} with this email address.`,
        "",
        "Confirm your email here (the link works once, for 48 hours):",
        link,
        "",
        "Once it is confirmed, the site's owner can publish your next comments without waiting for moderation.",
        "If you did not comment, ignore this email: nothing more will be sent about it.",
      ].join("\n"),
    };
  },
});

/** Opening the link (its page's button): once, before it expires; answers the confirmed address. */
export async function confirmCommentEmail(db: Db, token: string, ip: string): Promise<string> {
  if (!token || token.length > 200) throw new ValidationError(COMMENT_CONFIRM_INVALID);
  await enforceRateLimits(db, [{ key: `comment-confirm:ip:${ip}`, limit: 20, windowSeconds: 15 * 60 }]);
  const [row] = await db
    .update(commentAuthors)
    .set({ confirmedAt: sql`now()`, confirmTokenHash: null, confirmExpiresAt: null })
    .where(
      and(
        eq(commentAuthors.confirmTokenHash, hashSecretToken(token)),
        isNull(commentAuthors.confirmedAt),
        gt(commentAuthors.confirmExpiresAt, sql`now()`),
      ),
    )
    .returning({ email: commentAuthors.email });
  if (!row) throw new ValidationError(COMMENT_CONFIRM_INVALID);
  logger.info("commenter email confirmed");
  return row.email;
}

/** Sets or clears the owner's trust; answers false when the address is not confirmed (nothing changes then). */
export async function setCommentAuthorTrust(tx: Db, email: string, trusted: boolean): Promise<boolean> {
  const rows = await tx
    .update(commentAuthors)
    .set({ trustedAt: trusted ? new Date() : null })
    .where(and(eq(commentAuthors.email, email), trusted ? isNotNull(commentAuthors.confirmedAt) : sql`true`))
    .returning({ email: commentAuthors.email });
  return rows.length > 0;
}

/** The people whose comments are published without moderation, for the admin's list. */
export async function trustedCommenters(db: Db) {
  return db
    .select({ email: commentAuthors.email, confirmedAt: commentAuthors.confirmedAt, trustedAt: commentAuthors.trustedAt })
    .from(commentAuthors)
    .where(trustedAuthor)
    .orderBy(asc(commentAuthors.email));
}
