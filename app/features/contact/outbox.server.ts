import { and, eq, inArray, lt, lte, or, sql } from "drizzle-orm";
import { getDb, type Db } from "~/server/db/client.server";
import { contactMessages } from "~/server/db/schema.server";
import { getEnv } from "~/server/env.server";
import { logger } from "~/server/logger.server";
import { errorSummary, retryDelayMs } from "~/server/jobs/jobs.server";
import { Poller } from "~/server/jobs/poller.server";
import { readSiteSettings } from "~/features/settings/settings.server";
import { sendMail } from "~/server/mail.server";

/**
 * The contact outbox: messages are stored first (contact.server.ts) and delivered here, by every
 * running instance. A claim is one UPDATE over rows picked with FOR UPDATE SKIP LOCKED, so two
 * instances never send the same message at once; the claim holds a lease (locked_until), so a
 * message left in 'sending' by a killed process is picked up again once the lease runs out.
 * Delivery is at-least-once: a process killed after the SMTP server accepted a message but before
 * it was marked sent may send it again after restart.
 *
 * It shares the job runner's loop (Poller) and backoff rule but keeps contact_messages as its queue:
 * those columns are the delivery state the inbox shows (docs/decisions/core-a-jobs.md).
 */
export interface OutboxOptions {
  db?: () => Db;
  pollMs?: number;
  maxAttempts?: number;
  retryBaseMs?: number;
  lockSeconds?: number;
  /** Messages claimed per round, sent in parallel. */
  batchSize?: number;
}

// One home for the backoff rule: the job runner's (the contact tests keep importing it from here).
export { retryDelayMs };

interface ClaimedMessage {
  id: string;
  name: string;
  email: string;
  message: string;
  createdAt: Date;
  attempts: number;
}

export class ContactOutbox {
  private readonly db: () => Db;
  private readonly pollMs: number;
  private readonly maxAttempts: number;
  private readonly retryBaseMs: number;
  private readonly lockSeconds: number;
  private readonly batchSize: number;
  private readonly poller: Poller;

  constructor(options: OutboxOptions = {}) {
    const env = getEnv();
    this.db = options.db ?? getDb;
    this.pollMs = options.pollMs ?? env.CONTACT_POLL_MS;
    this.maxAttempts = options.maxAttempts ?? env.CONTACT_MAX_ATTEMPTS;
    this.retryBaseMs = options.retryBaseMs ?? env.CONTACT_RETRY_BASE_SECONDS * 1000;
    this.lockSeconds = options.lockSeconds ?? env.CONTACT_LOCK_SECONDS;
    this.batchSize = options.batchSize ?? 10;
    this.poller = new Poller("contact outbox", this.pollMs, () => this.drain());
  }

  start(): void {
    this.poller.start();
  }

  /** Stops polling and waits for the round in progress to finish. */
  async stop(): Promise<void> {
    await this.poller.stop();
  }

  /** Looks for due messages now (called right after a message is stored). */
  nudge(): void {
    this.poller.nudge();
  }

  /** Claims and sends due messages until none are left; returns how many were claimed. */
  async drain(): Promise<number> {
    let total = 0;
    for (;;) {
      if (this.poller.halting) return total;
      const claimed = await this.claim();
      if (claimed.length === 0) return total;
      total += claimed.length;
      await Promise.all(claimed.map((m) => this.deliver(m)));
    }
  }

  private async claim(): Promise<ClaimedMessage[]> {
    const db = this.db();
    const due = db
      .select({ id: contactMessages.id })
      .from(contactMessages)
      .where(
        or(
          and(eq(contactMessages.deliveryState, "pending"), lte(contactMessages.nextAttemptAt, sql`now()`)),
          and(eq(contactMessages.deliveryState, "sending"), lt(contactMessages.lockedUntil, sql`now()`)),
        ),
      )
      .orderBy(contactMessages.nextAttemptAt)
      .limit(this.batchSize)
      .for("update", { skipLocked: true });
    return db
      .update(contactMessages)
      .set({ deliveryState: "sending", lockedUntil: sql`now() + make_interval(secs => ${this.lockSeconds})` })
      .where(inArray(contactMessages.id, due))
      .returning({
        id: contactMessages.id,
        name: contactMessages.name,
        email: contactMessages.email,
        message: contactMessages.message,
        createdAt: contactMessages.createdAt,
        attempts: contactMessages.attempts,
      });
  }

  private async deliver(message: ClaimedMessage): Promise<void> {
    const env = getEnv();
    const db = this.db();
    // Only the holder of this claim may settle it (a stale worker whose lease ran out may not).
    const mine = and(eq(contactMessages.id, message.id), eq(contactMessages.deliveryState, "sending"));
    if (!env.SMTP_URL || !env.CONTACT_TO) {
      logger.info({ id: message.id, from: message.email }, "contact message stored; SMTP_URL or CONTACT_TO not set, not emailed");
      await db
        .update(contactMessages)
        .set({ deliveryState: "skipped", lockedUntil: null, lastError: "Email delivery is not configured (SMTP_URL, CONTACT_TO)" })
        .where(mine);
      return;
    }
    try {
      const { siteName } = await readSiteSettings(db);
      await sendMail({ ...contactEmail(env.CONTACT_TO, message), senderName: siteName });
      await db
        .update(contactMessages)
        .set({ deliveryState: "sent", deliveredAt: sql`now()`, lockedUntil: null, lastError: null, attempts: message.attempts + 1 })
        .where(mine);
      logger.info({ id: message.id }, "contact message delivered");
    } catch (error) {
      const attempts = message.attempts + 1;
      const failed = attempts >= this.maxAttempts;
      const lastError = errorSummary(error);
      await db
        .update(contactMessages)
        .set({
          deliveryState: failed ? "failed" : "pending",
          attempts,
          lastError,
          lockedUntil: null,
          nextAttemptAt: sql`now() + make_interval(secs => ${retryDelayMs(attempts, this.retryBaseMs) / 1000})`,
        })
        .where(mine);
      logger[failed ? "error" : "warn"](
        { id: message.id, attempts, err: error },
        failed ? "contact message delivery failed for good" : "contact message delivery failed; will retry",
      );
    }
  }
}

/** The email to the owner: reply-to is the visitor, so answering goes straight back to them. */
function contactEmail(to: string, message: Pick<ClaimedMessage, "id" | "name" | "email" | "message" | "createdAt">) {
  const oneLineName = message.name.replace(/[\r\n]+/g, " ");
  return {
    to,
    replyTo: `"${oneLineName.replace(/["\\]/g, "")}" <${message.email}>`,
    subject: `Contact form: message from ${oneLineName}`,
    text: [
      `Name: ${message.name}`,
      `Email: ${message.email}`,
      `Received: ${message.createdAt.toISOString()}`,
      `Message id: ${message.id}`,
      "",
      message.message,
      "",
      "Reply to this email to answer the visitor.",
    ].join("\n"),
  };
}

let instance: ContactOutbox | undefined;

/** Starts the app's outbox (server start-up). */
export function startOutbox(): void {
  instance ??= new ContactOutbox();
  instance.start();
}

export async function stopOutbox(): Promise<void> {
  await instance?.stop();
}

/** Wakes the running outbox, if this process runs one. */
export function nudgeOutbox(): void {
  instance?.nudge();
}
