import { randomUUID } from "node:crypto";
import { and, desc, eq, isNull, lt, or, sql } from "drizzle-orm";
import { VERIFICATION_REQUIRED } from "~/features/verification/verification";
import { verifyHumanToken } from "~/features/verification/verification.server";
import { canDeleteMessages, canReadMessages, type Actor } from "~/lib/permissions";
import { authorize } from "~/server/authorize.server";
import type { Db } from "~/server/db/client.server";
import { contactMessages, mailOutbox, type MailState } from "~/server/db/schema.server";
import { requeueMail } from "~/server/mail-outbox.server";
import { getEnv } from "~/server/env.server";
import { ConflictError, ForbiddenError, NotFoundError, parseOrThrow } from "~/server/errors.server";
import { defineRecurringTask } from "~/server/jobs/recurring.server";
import { logger } from "~/server/logger.server";
import { pageWindow } from "~/server/pagination.server";
import { enforceRateLimits } from "~/server/rate-limit.server";
import { contactRequestSchema } from "./contact-schema";
import { HONEYPOT_FIELD } from "./contact-texts";
import { CONTACT_MESSAGE_COLUMNS, contactMail, contactRecipient } from "./outbox.server";

const CONTACT_INVALID = "Please correct the highlighted fields.";
const CONTACT_RATE_LIMITED = "You have sent several messages in a short time. Please try again later or email me directly.";
const CONTACT_ID_REUSED = "This submission id belongs to a different message. Please reload the page and try again.";

export interface SubmitResult {
  /** The stored message's id (a throwaway id for a dropped bot submission). */
  id: string;
  /** False when an earlier submission with the same client id was stored already. */
  created: boolean;
  /** True when this call stored a message (a new one, not a replay or a dropped bot's). */
  stored: boolean;
}

/**
 * Accepts one contact message: validate → verify the human token → rate-limit per IP (in the
 * database) → store it. Delivery happens afterwards in the outbox, so an SMTP outage never loses
 * a message. A retried submission (same clientId) stores nothing new and answers like the first.
 * A filled honeypot gets the same answer as a person would, but nothing is stored.
 */
export async function submitContactMessage(db: Db, body: unknown, ip: string): Promise<SubmitResult> {
  const input = parseOrThrow(contactRequestSchema, body, CONTACT_INVALID);
  const { name, email, message, turnstileToken, clientId } = input;

  if (clientId) {
    // A replay of a stored submission (e.g. the answer was lost on the way back): its token was
    // spent by the first request, so answer from the stored row.
    const existing = await findByClientId(db, clientId);
    if (existing) return replayResult(existing, { name, email, message });
  }

  if (!turnstileToken) throw new ForbiddenError(VERIFICATION_REQUIRED.description);
  await verifyHumanToken(db, turnstileToken, ip);
  await enforceRateLimits(
    db,
    [{ key: `contact:ip:${ip}`, limit: getEnv().CONTACT_RATE_LIMIT_PER_10_MIN, windowSeconds: 600 }],
    CONTACT_RATE_LIMITED,
  );

  if (input[HONEYPOT_FIELD]) {
    logger.warn({ ip }, "contact honeypot filled; submission dropped");
    return { id: randomUUID(), created: true, stored: false };
  }

  const to = await contactRecipient(db);
  const row = await db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(contactMessages)
      .values({ name, email, message, clientId: clientId ?? null, ipAddress: ip, legacyDeliveryState: "sent" })
      .onConflictDoNothing({ target: contactMessages.clientId })
      .returning({ id: contactMessages.id });
    if (!inserted) return undefined;
    const mail = await contactMail.enqueue(tx, { to, payload: { messageId: inserted.id } }, { key: `contact:${inserted.id}` });
    await tx.update(contactMessages).set({ mailId: mail.id }).where(eq(contactMessages.id, inserted.id));
    return inserted;
  });
  if (!row) {
    // Two requests with one client id raced; the other one stored it.
    const existing = clientId ? await findByClientId(db, clientId) : undefined;
    if (!existing) throw new Error("contact message insert returned no row");
    return replayResult(existing, { name, email, message });
  }
  logger.info({ id: row.id }, "contact message stored");
  return { id: row.id, created: true, stored: true };
}

async function findByClientId(db: Db, clientId: string) {
  const [row] = await db
    .select({ id: contactMessages.id, name: contactMessages.name, email: contactMessages.email, message: contactMessages.message })
    .from(contactMessages)
    .where(eq(contactMessages.clientId, clientId))
    .limit(1);
  return row;
}

function replayResult(
  existing: { id: string; name: string; email: string; message: string },
  input: { name: string; email: string; message: string },
): SubmitResult {
  if (existing.name !== input.name || existing.email !== input.email || existing.message !== input.message) {
    throw new ConflictError(CONTACT_ID_REUSED);
  }
  return { id: existing.id, created: false, stored: false };
}

// ---- Staff inbox (/admin/messages); each write takes the actor and checks canReadMessages / canDeleteMessages ----

export const INBOX_FORBIDDEN = "You don't have permission to access the admin area.";

/** Messages per inbox page, newest first. */
export const INBOX_PAGE_SIZE = 50;

function inboxQuery(db: Db) {
  return db
    .select({
      ...CONTACT_MESSAGE_COLUMNS,
      // The delivery state is its outbox row's; a message whose row was pruned (or never made) shows as sent.
      deliveryState: sql<MailState>`coalesce(${mailOutbox.state}, 'sent')`,
      attempts: sql<number>`coalesce(${mailOutbox.attempts}, 0)`.mapWith(Number),
      lastError: mailOutbox.lastError,
      nextAttemptAt: mailOutbox.nextAttemptAt,
      deliveredAt: mailOutbox.sentAt,
      handledAt: contactMessages.handledAt,
    })
    .from(contactMessages)
    .leftJoin(mailOutbox, eq(mailOutbox.id, contactMessages.mailId));
}

/** One page of the inbox (1-based; a page past the last: NotFoundError) with the total count. */
export async function listContactMessages(db: Db, page = 1) {
  const [row] = await db.select({ total: sql<number>`count(*)::int` }).from(contactMessages);
  const total = row?.total ?? 0;
  const window = pageWindow(total, page, INBOX_PAGE_SIZE);
  const messages = await inboxQuery(db)
    .orderBy(desc(contactMessages.createdAt), desc(contactMessages.id))
    .limit(window.limit)
    .offset(window.offset);
  return { messages, total, page: window.page, pageCount: window.pageCount };
}

/**
 * The sidebar's unread count (messages nobody has marked handled yet), as a column of the caller's
 * statement: the admin shell reads it with its other facts (features/admin/two-factor-guard.server.ts).
 */
export function unreadMessagesCountOf(actor: Actor | null) {
  authorize(actor, canReadMessages, INBOX_FORBIDDEN);
  return sql<number>`(select count(*)::int from ${contactMessages} where ${contactMessages.handledAt} is null)`.mapWith(Number);
}

export type InboxMessage = Awaited<ReturnType<typeof listContactMessages>>["messages"][number];

/** Marks a message handled (or not handled again). */
export async function setMessageHandled(db: Db, actor: Actor | null, id: string, handled: boolean): Promise<void> {
  authorize(actor, canReadMessages, INBOX_FORBIDDEN);
  const updated = await db
    .update(contactMessages)
    .set({ handledAt: handled ? sql`now()` : null })
    .where(eq(contactMessages.id, id))
    .returning({ id: contactMessages.id });
  if (updated.length === 0) throw new NotFoundError("Message not found");
}

/**
 * Queues a message's email again now with a fresh set of attempts. A message being sent right now
 * is left alone (its attempt decides); one already sent is sent again only if asked explicitly.
 */
export async function retryMessageDelivery(db: Db, actor: Actor | null, id: string): Promise<void> {
  authorize(actor, canReadMessages, INBOX_FORBIDDEN);
  const [found] = await db.select({ mailId: contactMessages.mailId }).from(contactMessages).where(eq(contactMessages.id, id));
  if (!found) throw new NotFoundError("Message not found");
  if (!found.mailId) {
    // Its row was pruned: a new one.
    await db.transaction(async (tx) => {
      const mail = await contactMail.enqueue(tx, { to: await contactRecipient(tx), payload: { messageId: id } });
      await tx.update(contactMessages).set({ mailId: mail.id }).where(eq(contactMessages.id, id));
    });
    return;
  }
  const requeued = await requeueMail(db, found.mailId);
  if (requeued === false) throw new ConflictError("This message is being sent right now. Please wait a moment.");
}

export async function deleteContactMessage(db: Db, actor: Actor | null, id: string): Promise<void> {
  authorize(actor, canDeleteMessages, "Only an admin can delete messages.");
  const deleted = await db.delete(contactMessages).where(eq(contactMessages.id, id)).returning({ id: contactMessages.id });
  if (deleted.length === 0) throw new NotFoundError("Message not found");
}

/** How long after it was stored a message of the previous release is still adopted (a rolling upgrade takes minutes). */
const ADOPT_WITHIN = sql`interval '1 day'`;

/**
 * A rolling upgrade from the release before the mail outbox (docs/decisions/0067-rolling-upgrade-test.md):
 * that release stores a message with delivery state "pending" and no mail row, and delivers it itself.
 * When it stopped before delivering (or while it still runs), this release moves such a message into the
 * mail outbox, under the same key as the outbox's own rows. The conditional update claims it — the
 * previous release claims with one too — so the two never both send a message. Only recent rows are
 * adopted: a restored backup's old messages whose mail rows were pruned are not sent again.
 * Returns how many were adopted.
 */
export async function adoptPreviousReleaseMessages(db: Db): Promise<number> {
  return db.transaction(async (tx) => {
    const claimed = await tx
      .update(contactMessages)
      .set({ legacyDeliveryState: "sent", legacyLockedUntil: null })
      .where(
        and(
          isNull(contactMessages.mailId),
          sql`${contactMessages.createdAt} > now() - ${ADOPT_WITHIN}`,
          or(
            eq(contactMessages.legacyDeliveryState, "pending"),
            and(eq(contactMessages.legacyDeliveryState, "sending"), lt(contactMessages.legacyLockedUntil, sql`now()`)),
          ),
        ),
      )
      .returning({ id: contactMessages.id });
    if (claimed.length === 0) return 0;
    const to = await contactRecipient(tx);
    for (const { id } of claimed) {
      const mail = await contactMail.enqueue(tx, { to, payload: { messageId: id } }, { key: `contact:${id}` });
      await tx.update(contactMessages).set({ mailId: mail.id }).where(eq(contactMessages.id, id));
    }
    logger.info({ adopted: claimed.length }, "contact messages of the previous release moved to the mail outbox");
    return claimed.length;
  });
}

/** Every 20 seconds while a previous release may still store messages; an empty run is one indexed query. */
export const adoptPreviousReleaseMessagesTask = defineRecurringTask("contact.adopt-previous", 20_000, async ({ db }) => {
  await adoptPreviousReleaseMessages(db);
});
