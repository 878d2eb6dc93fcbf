import { randomUUID } from "node:crypto";
import { and, eq, inArray, lt, lte, ne, notExists, or, sql } from "drizzle-orm";
import type { PgUpdateSetSource } from "drizzle-orm/pg-core";
import type { z } from "zod";
import { getDatabase, getDb, type Database, type Db } from "./db/client.server";
import { notifySql } from "./db/notify.server";
import { contactMessages, mailOutbox } from "./db/schema.server";
import { getEnv } from "./env.server";
import { reservePacingSlot, retryDelayMs } from "./jobs/jobs.server";
import { Poller } from "./jobs/poller.server";
import { logger } from "./logger.server";
import { getMailConfig, type MailConfig } from "./mail-settings.server";
import { describeSmtpError, sendWithConfig, type MailMessage } from "./mail.server";

/**
 * The one outbox every email goes through (docs/decisions/0043-mail-outbox.md). A mail is a `mail_outbox`
 * row, enqueued in the caller's transaction, with a registered kind that renders it when it is
 * sent (so no secret is ever stored: a reset link's token is made at send time). Every instance
 * delivers: a claim is one UPDATE over rows picked with FOR UPDATE SKIP LOCKED under a lease, so two
 * instances never send one row at once, and a row left 'sending' by a killed process is claimed
 * again once its lease runs out (at-least-once; a kind that must not send twice guards itself in
 * render, as the newsletter does). Failures are retried with the job runner's backoff and end
 * 'failed' after the kind's attempts; without mail set up a row ends 'skipped' ("Retry now" sends it).
 *
 *   export const resetMail = defineMailKind("auth.password-reset", { label: "Password reset", schema, render });
 *   await resetMail.enqueue(tx, { to: user.email, payload: { userId } });
 */

/** What a skipped row records while mail is not set up. */
export const MAIL_NOT_CONFIGURED = "Not sent: email isn't set up (Settings → Email).";

export interface MailContext {
  db: Db;
  mailId: string;
  /** 1 for the first attempt. */
  attempt: number;
  /** The address the row was enqueued for. */
  recipient: string;
}

/** A rendered email; `to` defaults to the row's recipient. */
export type RenderedMail = Omit<MailMessage, "to"> & { to?: string };
/** render's answer when there is nothing to send any more (recorded as 'skipped' with the reason). */
export interface SkipMail {
  skip: string;
}

export interface MailKindOptions<S extends z.ZodType> {
  /** What the mail log calls it ("Contact message"). */
  label: string;
  schema: S;
  render: (payload: z.output<S>, ctx: MailContext) => Promise<RenderedMail | SkipMail>;
  /** After the SMTP server accepted the email. */
  onSent?: (payload: z.output<S>, ctx: MailContext) => Promise<void>;
  /** After an attempt failed (before the retry or the final 'failed'). */
  onError?: (payload: z.output<S>, ctx: MailContext) => Promise<void>;
  /** Attempts before 'failed' (default 8). */
  maxAttempts?: number;
  /** First retry delay; doubles each attempt, capped at an hour, ±20% jitter (default 5 s). */
  retryBaseMs?: number;
  /**
   * At most this many sends per second across all instances (newsletters); a function reads it for
   * every email (a setting in the database, so every instance follows a change at once).
   */
  ratePerSecond?: number | ((db: Db) => Promise<number>);
}

export interface MailKind<S extends z.ZodType> extends Required<Pick<MailKindOptions<S>, "label" | "maxAttempts" | "retryBaseMs">> {
  readonly kind: string;
  readonly options: MailKindOptions<S>;
  /** Stores the email for delivery; pass the caller's transaction so it commits with the write. */
  enqueue(db: Db, input: { to: string; payload: z.input<S> }, options?: EnqueueMailOptions): Promise<EnqueuedMail>;
}
type AnyMailKind = MailKind<z.ZodType>;

export interface EnqueueMailOptions {
  /** A second enqueue with the same key is a no-op while the first row exists. */
  key?: string;
  /** Not before this time. Default: the database's now() (the clock the outbox claims by, as for jobs). */
  runAt?: Date;
}
export interface EnqueuedMail {
  id: string;
  created: boolean;
}

/** NOTIFY channel: a committed enqueue wakes the outbox of every instance. */
export const MAIL_CHANNEL = "app_mail";

const holder = globalThis as typeof globalThis & { __mailKinds?: Map<string, AnyMailKind> };
const kinds = (holder.__mailKinds ??= new Map());

/** Registers a mail kind at module level (in a module server/app.ts imports, so every instance knows it). */
export function defineMailKind<S extends z.ZodType>(kind: string, options: MailKindOptions<S>): MailKind<S> {
  const definition: MailKind<S> = {
    kind,
    options,
    label: options.label,
    maxAttempts: options.maxAttempts ?? 8,
    retryBaseMs: options.retryBaseMs ?? 5_000,
    enqueue: (db, input, enqueueOptions = {}) => enqueueMail(db, kind, input.to, input.payload, enqueueOptions),
  };
  kinds.set(kind, definition as unknown as AnyMailKind);
  return definition;
}

/** The label of a kind for the mail log (the kind itself when this instance does not know it). */
export function mailKindLabel(kind: string): string {
  return kinds.get(kind)?.label ?? kind;
}

async function enqueueMail(db: Db, kind: string, to: string, payload: unknown, options: EnqueueMailOptions): Promise<EnqueuedMail> {
  const definition = kinds.get(kind);
  if (!definition) throw new Error(`Unknown mail kind "${kind}"`);
  const parsed = definition.options.schema.safeParse(payload);
  if (!parsed.success) throw new Error(`Invalid payload for mail "${kind}": ${parsed.error.issues[0]?.message ?? "invalid"}`);
  const [row] = await db
    .insert(mailOutbox)
    .values({
      kind,
      recipient: to,
      payload,
      maxAttempts: definition.maxAttempts,
      nextAttemptAt: options.runAt ?? sql`now()`,
      dedupeKey: options.key ?? null,
    })
    .onConflictDoNothing({ target: mailOutbox.dedupeKey })
    .returning({ id: mailOutbox.id });
  if (!row) {
    const [existing] = await db
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(eq(mailOutbox.dedupeKey, options.key ?? ""));
    if (!existing) throw new Error("mail insert returned no row");
    return { id: existing.id, created: false };
  }
  // Delivered on commit only (PostgreSQL and PGlite), waking the outbox of every instance.
  await db.execute(notifySql(MAIL_CHANNEL, kind));
  return { id: row.id, created: true };
}

/**
 * Queues a row again now with a fresh set of attempts ("Retry now", the inbox's retry). A row being
 * sent right now is left alone: false. Throws nothing for a missing row: null.
 */
export async function requeueMail(db: Db, id: string): Promise<boolean | null> {
  const updated = await db
    .update(mailOutbox)
    .set({ state: "pending", attempts: 0, nextAttemptAt: sql`now()`, lockedUntil: null, lockedBy: null, lastError: null })
    .where(and(eq(mailOutbox.id, id), ne(mailOutbox.state, "sending")))
    .returning({ id: mailOutbox.id });
  if (updated.length > 0) {
    await db.execute(notifySql(MAIL_CHANNEL, "retry"));
    return true;
  }
  const [exists] = await db.select({ id: mailOutbox.id }).from(mailOutbox).where(eq(mailOutbox.id, id));
  return exists ? false : null;
}

/**
 * Withdraws a pending email by its key (a reminder for a call that moved or was cancelled): true when
 * one was withdrawn. One an outbox is sending right now (locked) is left alone.
 */
export async function cancelMail(db: Db, key: string): Promise<boolean> {
  const deleted = await db
    .delete(mailOutbox)
    .where(
      and(
        eq(mailOutbox.dedupeKey, key),
        eq(mailOutbox.state, "pending"),
        or(sql`${mailOutbox.lockedUntil} is null`, lt(mailOutbox.lockedUntil, sql`now()`)),
      ),
    )
    .returning({ id: mailOutbox.id });
  return deleted.length > 0;
}

/**
 * Deletes settled rows (sent, failed, skipped) created before `before` — housekeeping keeps the log
 * to MAIL_LOG_RETENTION_DAYS. A contact message's row stays while the message does: the inbox shows it.
 */
export async function pruneMailLog(db: Db, before: Date): Promise<number> {
  const deleted = await db
    .delete(mailOutbox)
    .where(
      and(
        inArray(mailOutbox.state, ["sent", "failed", "skipped"]),
        lt(mailOutbox.createdAt, before),
        notExists(
          db
            .select({ one: sql`1` })
            .from(contactMessages)
            .where(eq(contactMessages.mailId, mailOutbox.id)),
        ),
      ),
    )
    .returning({ id: mailOutbox.id });
  return deleted.length;
}

export interface MailOutboxOptions {
  db?: () => Db;
  /** Listens for enqueues of other instances (NOTIFY) on this database; without it, polling only. */
  database?: () => Database;
  pollMs?: number;
  lockSeconds?: number;
  /** Rows claimed per round, sent in parallel. */
  batchSize?: number;
  /** Overrides every kind's first retry delay (tests). */
  retryBaseMs?: number;
  /** Overrides every kind's attempts (tests). */
  maxAttempts?: number;
}

interface ClaimedMail {
  id: string;
  kind: string;
  recipient: string;
  payload: unknown;
  attempts: number;
  maxAttempts: number;
}

const secs = (ms: number) => sql`make_interval(secs => ${ms / 1000})`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The delivering half of the outbox: one per process, started at server start-up. */
export class MailOutbox {
  private readonly db: () => Db;
  private readonly lockSeconds: number;
  private readonly batchSize: number;
  private readonly retryBaseMs: number | undefined;
  private readonly maxAttempts: number | undefined;
  private readonly poller: Poller;
  private readonly database: (() => Database) | undefined;
  private unlisten: (() => Promise<void>) | undefined;

  constructor(options: MailOutboxOptions = {}) {
    const env = getEnv();
    this.db = options.db ?? getDb;
    this.database = options.database;
    this.lockSeconds = options.lockSeconds ?? env.CONTACT_LOCK_SECONDS;
    this.batchSize = options.batchSize ?? 10;
    this.retryBaseMs = options.retryBaseMs;
    this.maxAttempts = options.maxAttempts;
    this.poller = new Poller("mail outbox", options.pollMs ?? env.CONTACT_POLL_MS, () => this.drain());
  }

  async start(): Promise<void> {
    if (this.poller.isRunning) return;
    try {
      this.unlisten = await this.database?.().listen(MAIL_CHANNEL, () => this.poller.nudge());
    } catch (error) {
      // Polling still finds every row; the listener reconnects by itself.
      logger.warn({ err: error }, "mail outbox could not listen for enqueued email; polling only");
    }
    this.poller.start();
  }

  /** Stops polling and waits for the round in progress to finish. */
  async stop(): Promise<void> {
    const unlisten = this.unlisten;
    this.unlisten = undefined;
    await unlisten?.().catch(() => undefined);
    await this.poller.stop();
  }

  /** Looks for due rows now. */
  nudge(): void {
    this.poller.nudge();
  }

  /** Claims and sends due rows until none are left; returns how many were claimed. */
  async drain(): Promise<number> {
    let total = 0;
    for (;;) {
      if (this.poller.halting) return total;
      const claimed = await this.claim();
      if (claimed.rows.length === 0) return total;
      total += claimed.rows.length;
      const config = await getMailConfig(this.db());
      await Promise.all(claimed.rows.map((row) => this.deliver(row, claimed.token, config)));
    }
  }

  private async claim(): Promise<{ token: string; rows: ClaimedMail[] }> {
    const db = this.db();
    const token = randomUUID();
    const known = [...kinds.keys()];
    if (known.length === 0) return { token, rows: [] };
    const due = db
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(
        and(
          inArray(mailOutbox.kind, known),
          or(
            and(eq(mailOutbox.state, "pending"), lte(mailOutbox.nextAttemptAt, sql`now()`)),
            and(eq(mailOutbox.state, "sending"), lt(mailOutbox.lockedUntil, sql`now()`)),
          ),
        ),
      )
      .orderBy(mailOutbox.nextAttemptAt)
      .limit(this.batchSize)
      .for("update", { skipLocked: true });
    const rows = await db
      .update(mailOutbox)
      .set({
        state: "sending",
        attempts: sql`${mailOutbox.attempts} + 1`,
        lockedBy: token,
        lockedUntil: sql`now() + make_interval(secs => ${this.lockSeconds})`,
      })
      .where(inArray(mailOutbox.id, due))
      .returning({
        id: mailOutbox.id,
        kind: mailOutbox.kind,
        recipient: mailOutbox.recipient,
        payload: mailOutbox.payload,
        attempts: mailOutbox.attempts,
        maxAttempts: mailOutbox.maxAttempts,
      });
    return { token, rows };
  }

  private async settle(row: ClaimedMail, token: string, values: PgUpdateSetSource<typeof mailOutbox>): Promise<void> {
    // Only the holder of this claim may settle the row (a stale worker whose lease ran out may not).
    await this.db()
      .update(mailOutbox)
      .set({ lockedUntil: null, lockedBy: null, lastAttemptAt: sql`now()`, ...values })
      .where(and(eq(mailOutbox.id, row.id), eq(mailOutbox.lockedBy, token), eq(mailOutbox.state, "sending")));
  }

  private async deliver(row: ClaimedMail, token: string, config: MailConfig | null): Promise<void> {
    const db = this.db();
    const definition = kinds.get(row.kind);
    const log = { mailId: row.id, kind: row.kind, attempt: row.attempts };
    const maxAttempts = this.maxAttempts ?? row.maxAttempts;
    if (!definition) return;
    if (row.attempts > maxAttempts) {
      await this.settle(row, token, { state: "failed", lastError: `Gave up after ${maxAttempts} attempts (the last one never finished)` });
      return;
    }
    if (!config) {
      // Not an attempt: nothing was tried. "Retry now" (or the inbox's retry) queues it again.
      await this.settle(row, token, { state: "skipped", attempts: row.attempts - 1, lastError: MAIL_NOT_CONFIGURED });
      logger.info(log, "email not sent: mail is not set up");
      return;
    }
    const parsed = definition.options.schema.safeParse(row.payload);
    if (!parsed.success) {
      await this.settle(row, token, { state: "failed", lastError: "Invalid payload" });
      return;
    }
    const ctx: MailContext = { db, mailId: row.id, attempt: row.attempts, recipient: row.recipient };
    let stage: "render" | "send" = "render";
    try {
      const rendered = await definition.options.render(parsed.data, ctx);
      if ("skip" in rendered) {
        await this.settle(row, token, { state: "skipped", lastError: rendered.skip });
        return;
      }
      const pacing = definition.options.ratePerSecond;
      const rate = typeof pacing === "function" ? await pacing(db) : pacing;
      if (rate && rate > 0) {
        const waitMs = await reservePacingSlot(db, `mail:${row.kind}`, 1000 / rate);
        if (waitMs > 0) {
          // A long queue of paced sends waits past the lease: keep the claim for the wait, or another
          // instance would claim the row and send it too.
          const kept = await db
            .update(mailOutbox)
            .set({ lockedUntil: sql`now() + ${secs(waitMs + this.lockSeconds * 1000)}` })
            .where(and(eq(mailOutbox.id, row.id), eq(mailOutbox.lockedBy, token), eq(mailOutbox.state, "sending")))
            .returning({ id: mailOutbox.id });
          if (kept.length === 0) return;
          await sleep(waitMs);
        }
      }
      stage = "send";
      const to = rendered.to ?? row.recipient;
      await sendWithConfig(config, { ...rendered, to });
      await this.settle(row, token, { state: "sent", sentAt: sql`now()`, lastError: null, recipient: to });
      await definition.options.onSent?.(parsed.data, ctx);
      logger.info(log, "email sent");
    } catch (error) {
      const failed = row.attempts >= maxAttempts;
      const reason =
        stage === "send" ? describeSmtpError(error) : `Could not prepare the email: ${String((error as Error).message ?? error)}`;
      await definition.options
        .onError?.(parsed.data, ctx)
        .catch((hookError: unknown) => logger.error({ ...log, err: hookError }, "mail onError failed"));
      await this.settle(row, token, {
        state: failed ? "failed" : "pending",
        lastError: reason.slice(0, 500),
        nextAttemptAt: sql`now() + ${secs(retryDelayMs(row.attempts, this.retryBaseMs ?? definition.retryBaseMs))}`,
      });
      logger[failed ? "error" : "warn"]({ ...log, reason }, failed ? "email failed for good" : "email failed; will retry");
    }
  }
}

// One outbox per process; on globalThis so that Vite's module reloading in development keeps it.
const running = globalThis as typeof globalThis & { __mailOutbox?: MailOutbox };

/** Starts this process's outbox (server start-up, after migrations). */
export async function startMailOutbox(): Promise<void> {
  running.__mailOutbox ??= new MailOutbox({ database: getDatabase });
  await running.__mailOutbox.start();
}

/** Stops it and waits for the sends in progress (server shutdown). */
export async function stopMailOutbox(): Promise<void> {
  const outbox = running.__mailOutbox;
  running.__mailOutbox = undefined;
  await outbox?.stop();
}
