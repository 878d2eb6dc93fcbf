import { createServer } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { appSettings, auditLog, mailOutbox, subscribers } from "~/server/db/schema.server";
import { resetEnvForTests } from "~/server/env.server";
import { ConflictError, ForbiddenError, ValidationError } from "~/server/errors.server";
import { getMailConfig, MAIL_SETTINGS_KEY, subscriptionOffer } from "~/server/mail-settings.server";
import { MailOutbox, MAIL_NOT_CONFIGURED } from "~/server/mail-outbox.server";
import { contactMail } from "~/features/contact/outbox.server";
import { resendPendingConfirmations } from "~/features/subscriptions/subscriptions.server";
import { describeEachDatabase } from "../../../tests/helpers/databases";
import { makeContactMessage, makeUser } from "../../../tests/helpers/factories";
import { startSmtpServer, type TestSmtpServer } from "../../../tests/helpers/smtp";
import {
  listMailLog,
  readMailSettingsView,
  readMailStatus,
  retryLoggedMail,
  saveMailSettings,
  sendTestEmail,
} from "./mail-settings.server";

const saved = { ...process.env };
let smtp: TestSmtpServer;
/** A port nothing listens on (taken, then released). */
let closedPort = 0;

beforeAll(async () => {
  process.env.AUTH_SECRET = "mail-settings-tests-secret-0123456789abcdef";
  process.env.LOG_LEVEL = "silent";
  delete process.env.SMTP_URL;
  process.env.CONTACT_TO = "owner@site.example";
  resetEnvForTests();
  smtp = await startSmtpServer();
  closedPort = await new Promise<number>((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 1));
    });
  });
});
afterAll(async () => {
  process.env = saved;
  resetEnvForTests();
  await smtp.close();
});

const form = (overrides: Record<string, string> = {}) => ({
  host: "127.0.0.1",
  port: String(smtp.port),
  security: "none",
  user: "mailer",
  password: "s3cret-smtp-pass",
  senderName: "The Site",
  senderAddress: "news@site.example",
  replyTo: "",
  subscriptionsEnabled: "on",
  ...overrides,
});

describeEachDatabase("email settings", (ctx) => {
  const clear = async () => {
    await ctx.db.delete(appSettings).where(eq(appSettings.key, MAIL_SETTINGS_KEY));
    await ctx.db.delete(mailOutbox);
  };

  it("without settings nothing is set up: public pages say so and a queued email is skipped, not lost", async () => {
    await clear();
    const admin = await makeUser(ctx.db, { role: "admin" });
    expect(await getMailConfig(ctx.db)).toBeNull();
    expect(await subscriptionOffer(ctx.db)).toBe("unavailable");
    expect(await readMailStatus(ctx.db, admin.actor)).toEqual({ configured: false, lastFailure: null });
    await contactMail.enqueue(ctx.db, { to: "owner@site.example", payload: { messageId: crypto.randomUUID() } });
    await new MailOutbox({ db: () => ctx.db }).drain();
    const [row] = await listMailLog(ctx.db, admin.actor);
    expect(row).toMatchObject({ label: "Contact message", state: "skipped", attempts: 0, lastError: MAIL_NOT_CONFIGURED });
  });

  it("saves the settings with the password sealed; the view never holds it; an empty password keeps it", async () => {
    await clear();
    const admin = await makeUser(ctx.db, { role: "admin" });
    await saveMailSettings(ctx.db, admin.actor, form());
    const [stored] = await ctx.db.select({ value: appSettings.value }).from(appSettings).where(eq(appSettings.key, MAIL_SETTINGS_KEY));
    expect(stored?.value).not.toContain("s3cret-smtp-pass");
    const view = await readMailSettingsView(ctx.db, admin.actor);
    expect(view).toMatchObject({ host: "127.0.0.1", hasPassword: true, configured: true, envWins: false });
    expect(JSON.stringify(view)).not.toContain("s3cret");
    await saveMailSettings(ctx.db, admin.actor, form({ password: "", senderName: "Renamed" }));
    const config = await getMailConfig(ctx.db);
    expect(config).toMatchObject({ source: "settings", password: "s3cret-smtp-pass", senderName: "Renamed" });
    const audits = await ctx.db.select({ summary: auditLog.summary }).from(auditLog).where(eq(auditLog.action, "settings.mail"));
    expect(audits.length).toBeGreaterThanOrEqual(2);
    expect(JSON.stringify(audits)).not.toContain("s3cret");
    expect(await subscriptionOffer(ctx.db)).toBe("form");
    await saveMailSettings(ctx.db, admin.actor, form({ password: "", subscriptionsEnabled: "" }));
    expect(await subscriptionOffer(ctx.db)).toBe("off");
  });

  it("bad settings get a clear error and change nothing; only administrators may save", async () => {
    await clear();
    const admin = await makeUser(ctx.db, { role: "admin" });
    const moderator = await makeUser(ctx.db, { role: "moderator" });
    await saveMailSettings(ctx.db, admin.actor, form());
    const before = await readMailSettingsView(ctx.db, admin.actor);
    for (const [bad, message] of [
      [{ port: "99999" }, /Port must be a number/],
      [{ host: "smtp.example.com\r\nRCPT TO:<x@y>" }, /Host must be/],
      [{ senderAddress: "not an address" }, /Sender address must be an email address/],
      [{ security: "ssl3" }, /Choose how the connection is secured/],
    ] as const) {
      const error = await saveMailSettings(ctx.db, admin.actor, form(bad)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect(JSON.stringify((error as ValidationError).fieldErrors)).toMatch(message);
    }
    await expect(saveMailSettings(ctx.db, moderator.actor, form({ host: "evil.example" }))).rejects.toBeInstanceOf(ForbiddenError);
    expect(await readMailSettingsView(ctx.db, admin.actor)).toEqual(before);
  });

  it("'Send a test email' arrives and answers with the server's reply; a refused connection is said in words and logged", async () => {
    await clear();
    const admin = await makeUser(ctx.db, { role: "admin" });
    await expect(sendTestEmail(ctx.db, admin.actor, { to: "owner@site.example" })).rejects.toBeInstanceOf(ConflictError);
    await saveMailSettings(ctx.db, admin.actor, form({ user: "", password: "" }));
    const before = smtp.received.length;
    const sent = await sendTestEmail(ctx.db, admin.actor, { to: "owner@site.example" });
    expect(sent).toMatchObject({ ok: true, to: "owner@site.example" });
    expect(sent.ok && sent.answer).toMatch(/^250/);
    const mail = smtp.received.slice(before).find((m) => m.to.includes("owner@site.example"));
    expect(mail?.raw).toMatch(/^From: The Site <news@site.example>/m);

    await saveMailSettings(ctx.db, admin.actor, form({ port: String(closedPort), user: "", password: "" }));
    const refused = await sendTestEmail(ctx.db, admin.actor, { to: "owner@site.example" });
    expect(refused).toMatchObject({ ok: false, error: expect.stringMatching(/^Connection refused/) });
    const log = await listMailLog(ctx.db, admin.actor);
    expect(log.map((r) => [r.label, r.state])).toEqual([
      ["Test email", "failed"],
      ["Test email", "sent"],
    ]);
    const status = await readMailStatus(ctx.db, admin.actor);
    expect(status.configured).toBe(true);
    expect(status.lastFailure?.reason).toMatch(/Connection refused/);
    await expect(retryLoggedMail(ctx.db, admin.actor, log[0]?.id)).rejects.toBeInstanceOf(ConflictError);
  });

  it("a failing queued email records the reason and its next attempt; Retry now queues it again", async () => {
    await clear();
    const admin = await makeUser(ctx.db, { role: "admin" });
    await saveMailSettings(ctx.db, admin.actor, form({ port: String(closedPort), user: "", password: "" }));
    const message = await makeContactMessage(ctx.db);
    await contactMail.enqueue(ctx.db, { to: "owner@site.example", payload: { messageId: message.id } });
    await new MailOutbox({ db: () => ctx.db }).drain();
    const [row] = await listMailLog(ctx.db, admin.actor);
    expect(row).toMatchObject({ state: "pending", attempts: 1, lastError: expect.stringMatching(/^Connection refused/) });
    expect(row?.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());
    await expect(listMailLog(ctx.db, (await makeUser(ctx.db, { role: "moderator" })).actor)).rejects.toBeInstanceOf(ForbiddenError);
    await retryLoggedMail(ctx.db, admin.actor, row?.id);
    expect((await listMailLog(ctx.db, admin.actor))[0]).toMatchObject({ state: "pending", attempts: 0, lastError: null });
  });

  it("pending subscribers are re-sent their confirmation once mail works, each address once per 24 hours", async () => {
    await clear();
    const admin = await makeUser(ctx.db, { role: "admin" });
    const email = `pending-${crypto.randomUUID()}@readers.example`;
    await ctx.db.insert(subscribers).values({ email, categories: ["Fun"], state: "pending" });
    await expect(resendPendingConfirmations(ctx.db, admin.actor)).rejects.toBeInstanceOf(ConflictError);
    await saveMailSettings(ctx.db, admin.actor, form({ user: "", password: "" }));
    expect(await resendPendingConfirmations(ctx.db, admin.actor)).toBeGreaterThanOrEqual(1);
    const before = smtp.received.length;
    await new MailOutbox({ db: () => ctx.db }).drain();
    expect(smtp.received.slice(before).some((m) => m.to.includes(email))).toBe(true);
    expect(await resendPendingConfirmations(ctx.db, admin.actor)).toBe(0);

    // A confirmation that failed for good never reached the address: it does not count.
    const failed = `failed-${crypto.randomUUID()}@readers.example`;
    const [subscriber] = await ctx.db
      .insert(subscribers)
      .values({ email: failed, categories: ["Fun"], state: "pending" })
      .returning();
    await ctx.db.insert(mailOutbox).values({
      kind: "subscriptions.confirm",
      recipient: failed,
      payload: { subscriberId: subscriber?.id },
      state: "failed",
      lastError: "Connection refused",
    });
    expect(await resendPendingConfirmations(ctx.db, admin.actor)).toBe(1);
  });
});
