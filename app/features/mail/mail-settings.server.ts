import { desc, eq, isNotNull } from "drizzle-orm";
import { z } from "zod";
import { canEdit, canManageSettings, type Actor } from "~/lib/permissions";
import { recordAudit } from "~/server/audit.server";
import { authorize } from "~/server/authorize.server";
import { bumpContentVersion } from "~/server/content-version.server";
import type { Db } from "~/server/db/client.server";
import { mailOutbox } from "~/server/db/schema.server";
import { getEnv } from "~/server/env.server";
import { ConflictError, NotFoundError, parseOrThrow } from "~/server/errors.server";
import { defineMailKind, mailKindLabel, requeueMail } from "~/server/mail-outbox.server";
import {
  isMailConfigured,
  MAIL_SETTINGS_KEY,
  readMailConfig,
  readStoredMailSettings,
  SMTP_PASSWORD_PURPOSE,
  type StoredMailSettings,
} from "~/server/mail-settings.server";
import { describeSmtpError, sendWithConfig } from "~/server/mail.server";
import { requestMemo } from "~/server/request-scope.server";
import { sealWithAppSecret } from "~/server/secret.server";
import { getSiteSettings, readSiteSettings } from "~/features/settings/settings.server";
import { configuredSiteUrl } from "~/features/settings/site-url.server";
import {
  MAIL_FORBIDDEN,
  MAIL_LOG_SIZE,
  mailSettingsFormSchema,
  TEST_EMAIL_NEEDS_SETUP,
  testEmailSchema,
  type MailSettingsView,
} from "./mail-settings-schema";
import { writeJsonSetting } from "~/server/app-settings.server";

/** The settings screen's view: everything but the password (only whether one is saved). */
export async function readMailSettingsView(db: Db, actor: Actor | null): Promise<MailSettingsView> {
  authorize(actor, canManageSettings, MAIL_FORBIDDEN);
  const stored = await readStoredMailSettings(db);
  return {
    host: stored?.host ?? "",
    port: stored?.port ?? 587,
    security: stored?.security ?? "starttls",
    user: stored?.user ?? "",
    hasPassword: Boolean(stored?.passwordSealed),
    senderName: stored?.senderName ?? "",
    senderAddress: stored?.senderAddress ?? "",
    replyTo: stored?.replyTo ?? "",
    subscriptionsEnabled: stored?.subscriptionsEnabled ?? true,
    envWins: Boolean(getEnv().SMTP_URL),
    configured: (await readMailConfig(db)) !== null,
  };
}

/**
 * Administrators only. Validates everything first (a refusal changes nothing), seals a new password
 * with a key derived from the app secret (an empty field keeps the saved one), and bumps the content
 * version so every instance applies it at once and cached public pages offer (or stop offering) the
 * Subscribe form. The audit entry names what changed, never the password.
 */
export async function saveMailSettings(db: Db, actor: Actor | null, input: unknown): Promise<void> {
  authorize(actor, canManageSettings, MAIL_FORBIDDEN);
  const fields = parseOrThrow(mailSettingsFormSchema, input);
  const previous = await readStoredMailSettings(db);
  const passwordSealed = fields.clearPassword
    ? null
    : fields.password
      ? await sealWithAppSecret(db, SMTP_PASSWORD_PURPOSE, fields.password)
      : (previous?.passwordSealed ?? null);
  const record: StoredMailSettings = {
    host: fields.host,
    port: fields.port,
    security: fields.security,
    user: fields.user,
    passwordSealed,
    senderName: fields.senderName,
    senderAddress: fields.senderAddress,
    replyTo: fields.replyTo,
    subscriptionsEnabled: fields.subscriptionsEnabled,
  };
  await db.transaction(async (tx) => {
    await writeJsonSetting(tx, MAIL_SETTINGS_KEY, record);
    await bumpContentVersion(tx);
    const passwordNote = fields.clearPassword ? "; password removed" : fields.password ? "; password changed" : "";
    await recordAudit(tx, {
      actor,
      action: "settings.mail",
      summary: `SMTP ${fields.host ? `${fields.host}:${fields.port} (${fields.security})` : "not set"}${passwordNote}`,
    });
  });
}

export type TestEmailResult = { ok: true; to: string; answer: string } | { ok: false; to: string; error: string };

/** The test email's row in the mail log: sent by the request itself, since its point is the server's answer now. */
export const testMail = defineMailKind("mail.test", {
  label: "Test email",
  schema: z.object({}),
  async render(_payload, { db }) {
    return testMessage((await readSiteSettings(db)).siteName);
  },
});

function testMessage(siteName: string) {
  return {
    senderName: siteName,
    subject: `Test email from ${siteName}`,
    text: [`This is a test email from ${siteName}.`, "", "If you can read it, the site can send email."].join("\n"),
  };
}

/**
 * "Send a test email": sends one now with the current settings and answers with the server's reply
 * or the failure in words (wrong password, connection refused, TLS failure, …). It is logged like any
 * other email; a failure is not retried (the owner is looking at the answer).
 */
export async function sendTestEmail(db: Db, actor: Actor | null, input: unknown): Promise<TestEmailResult> {
  authorize(actor, canManageSettings, MAIL_FORBIDDEN);
  const { to } = parseOrThrow(testEmailSchema, input);
  const config = await readMailConfig(db);
  if (!config) throw new ConflictError(TEST_EMAIL_NEEDS_SETUP);
  const { siteName } = await readSiteSettings(db);
  const log = (values: Partial<typeof mailOutbox.$inferInsert>) =>
    db
      .insert(mailOutbox)
      .values({ kind: testMail.kind, recipient: to, payload: {}, attempts: 1, maxAttempts: 1, lastAttemptAt: new Date(), ...values });
  try {
    const { response } = await sendWithConfig(config, { to, ...testMessage(siteName) });
    await log({ state: "sent", sentAt: new Date() });
    return { ok: true, to, answer: response };
  } catch (error) {
    const reason = describeSmtpError(error);
    await log({ state: "failed", lastError: reason });
    return { ok: false, to, error: reason };
  }
}

// ---- Status (dashboard line, admin banner) ----

export interface MailStatus {
  configured: boolean;
  /** The most recent attempt failed: when, and why. */
  lastFailure: { at: Date; reason: string } | null;
}

/**
 * Whether mail works: set up at all (the mail state every page reads, kept per content version:
 * saving the settings bumps it), and whether the latest attempt to send anything failed.
 */
export async function readMailStatus(db: Db, actor: Actor | null): Promise<MailStatus> {
  authorize(actor, canEdit, MAIL_FORBIDDEN);
  const [configured, [latest]] = await Promise.all([
    isMailConfigured(db),
    db
      .select({ state: mailOutbox.state, lastError: mailOutbox.lastError, at: mailOutbox.lastAttemptAt })
      .from(mailOutbox)
      .where(isNotNull(mailOutbox.lastAttemptAt))
      .orderBy(desc(mailOutbox.lastAttemptAt))
      .limit(1),
  ]);
  const failed = latest?.at && latest.lastError && (latest.state === "failed" || latest.state === "pending");
  return { configured, lastFailure: failed && latest.at && latest.lastError ? { at: latest.at, reason: latest.lastError } : null };
}

const mailStatusOfRequest = requestMemo<Promise<MailStatus>>();

/**
 * readMailStatus once per page request: the admin layout's banner and the dashboard's line read the
 * same. Only reads share it: an action may send or retry mail, and the loaders after it read again.
 */
export function readRequestMailStatus(request: Request, db: Db, actor: Actor | null): Promise<MailStatus> {
  if (request.method !== "GET" && request.method !== "HEAD") return readMailStatus(db, actor);
  return mailStatusOfRequest(request, () => readMailStatus(db, actor));
}

// ---- Mail log (administrators) ----

/** The last emails, newest first, with their state and (for a failure) the reason and next attempt. */
export async function listMailLog(db: Db, actor: Actor | null, limit = MAIL_LOG_SIZE) {
  authorize(actor, canManageSettings, MAIL_FORBIDDEN);
  const rows = await db
    .select({
      id: mailOutbox.id,
      kind: mailOutbox.kind,
      recipient: mailOutbox.recipient,
      state: mailOutbox.state,
      attempts: mailOutbox.attempts,
      lastError: mailOutbox.lastError,
      nextAttemptAt: mailOutbox.nextAttemptAt,
      createdAt: mailOutbox.createdAt,
      sentAt: mailOutbox.sentAt,
    })
    .from(mailOutbox)
    .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id))
    .limit(limit);
  return rows.map((row) => ({ ...row, label: mailKindLabel(row.kind) }));
}
export type MailLogEntry = Awaited<ReturnType<typeof listMailLog>>[number];

/** "Retry now": queues a logged email again with a fresh set of attempts (not one being sent right now). */
export async function retryLoggedMail(db: Db, actor: Actor | null, rawId: unknown): Promise<void> {
  authorize(actor, canManageSettings, MAIL_FORBIDDEN);
  const id = parseOrThrow(z.uuid(), rawId, "That email is no longer in the log.");
  const [row] = await db.select({ kind: mailOutbox.kind }).from(mailOutbox).where(eq(mailOutbox.id, id));
  if (!row) throw new NotFoundError("That email is no longer in the log.");
  if (row.kind === testMail.kind) throw new ConflictError("Send a new test email instead.");
  const requeued = await requeueMail(db, id);
  if (requeued === null) throw new NotFoundError("That email is no longer in the log.");
  if (!requeued) throw new ConflictError("This email is being sent right now. Please wait a moment.");
}

/**
 * What the admin banner needs: whether mail is set up, why the last send failed (if it did), and —
 * while neither PUBLIC_URL nor the Site address is set — the server's own address, which links in
 * emails would start with (never a request's Host, which a visitor could forge).
 */
export async function readMailBanner(request: Request, db: Db, actor: Actor | null) {
  const [status, site] = await Promise.all([readRequestMailStatus(request, db, actor), getSiteSettings()]);
  const siteAddressMissing = configuredSiteUrl(site) === undefined;
  return {
    configured: status.configured,
    lastFailureReason: status.lastFailure?.reason ?? null,
    linksWouldPointTo: siteAddressMissing ? getEnv().publicUrl : null,
  };
}
