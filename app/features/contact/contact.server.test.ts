import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { contactMessages, mailOutbox } from "~/server/db/schema.server";
import { MailOutbox } from "~/server/mail-outbox.server";
import { resetEnvForTests } from "~/server/env.server";
import type { Actor } from "~/lib/permissions";
import { AppError, ForbiddenError, NotFoundError, UnauthorizedError } from "~/server/errors.server";
import { describeEachDatabase } from "../../../tests/helpers/databases";
import { contactForm, makeContactMessage } from "../../../tests/helpers/factories";
import { deliveredIds, deliveryOf, easyVerificationToken } from "../../../tests/helpers/contact";
import { startSmtpServer, type TestSmtpServer } from "../../../tests/helpers/smtp";
import {
  adoptPreviousReleaseMessages,
  deleteContactMessage,
  INBOX_PAGE_SIZE,
  listContactMessages,
  retryMessageDelivery,
  setMessageHandled,
  submitContactMessage,
} from "./contact.server";
import "./outbox.server";

const saved = { ...process.env };

beforeAll(() => {
  process.env.AUTH_SECRET = "contact-tests-secret-0123456789abcdef";
  process.env.LOG_LEVEL = "silent";
  delete process.env.SMTP_URL;
  delete process.env.CONTACT_TO;
  resetEnvForTests();
});
afterAll(() => {
  process.env = saved;
  resetEnvForTests();
});

const ADMIN: Actor = { id: "admin-id", role: "admin" };
const MODERATOR: Actor = { id: "moderator-id", role: "moderator" };
const USER: Actor = { id: "user-id", role: "user" };

let ipCounter = 0;
const freshIp = () => `10.7.0.${++ipCounter}`;

async function statusOf(promise: Promise<unknown>): Promise<{ status: number; fieldErrors?: Record<string, string[]> }> {
  try {
    await promise;
    return { status: 0 };
  } catch (error) {
    if (error instanceof AppError) return { status: error.status, fieldErrors: error.fieldErrors };
    throw error;
  }
}

describeEachDatabase("contact messages", (ctx) => {
  const count = async () => (await ctx.db.select({ n: sql<number>`count(*)::int` }).from(contactMessages))[0]?.n ?? 0;

  it("refuses invalid input with per-field errors and stores nothing", async () => {
    const before = await count();
    const result = await statusOf(
      submitContactMessage(
        ctx.db,
        { name: " ", email: "x", message: "m".repeat(1001), turnstileToken: await easyVerificationToken(ctx.db) },
        freshIp(),
      ),
    );
    expect(result).toEqual({
      status: 400,
      fieldErrors: { name: ["Name is required"], email: ["Invalid email address"], message: ["Message must be less than 1000 characters"] },
    });
    expect(await statusOf(submitContactMessage(ctx.db, "not an object", freshIp()))).toMatchObject({ status: 400 });
    expect(await count()).toBe(before);
  });

  it("needs a valid, unused verification token", async () => {
    const before = await count();
    expect((await statusOf(submitContactMessage(ctx.db, contactForm(), freshIp()))).status).toBe(403);
    expect((await statusOf(submitContactMessage(ctx.db, { ...contactForm(), turnstileToken: "forged" }, freshIp()))).status).toBe(403);
    const token = await easyVerificationToken(ctx.db);
    expect((await statusOf(submitContactMessage(ctx.db, { ...contactForm(), turnstileToken: token }, freshIp()))).status).toBe(0);
    expect((await statusOf(submitContactMessage(ctx.db, { ...contactForm(), turnstileToken: token }, freshIp()))).status).toBe(403);
    expect(await count()).toBe(before + 1);
  });

  it("stores trimmed fields, the IP and a pending delivery state", async () => {
    const ip = freshIp();
    const { id, created } = await submitContactMessage(
      ctx.db,
      { name: "  Grace Hopper ", email: " grace@example.com ", message: " Hi there ", turnstileToken: await easyVerificationToken(ctx.db) },
      ip,
    );
    expect(created).toBe(true);
    const [row] = await ctx.db.select().from(contactMessages).where(eq(contactMessages.id, id));
    expect(row).toMatchObject({
      name: "Grace Hopper",
      email: "grace@example.com",
      message: "Hi there",
      ipAddress: ip,
    });
    // Its email to the owner is queued in the same transaction.
    expect(await deliveryOf(ctx.db, id)).toMatchObject({ state: "pending", attempts: 0 });
  });

  it("stores one message for a retried submission with the same client id", async () => {
    const clientId = randomUUID();
    const body = { ...contactForm(), clientId };
    const first = await submitContactMessage(ctx.db, { ...body, turnstileToken: await easyVerificationToken(ctx.db) }, freshIp());
    const retry = await submitContactMessage(ctx.db, { ...body, turnstileToken: await easyVerificationToken(ctx.db) }, freshIp());
    // A replay of the very same request (its token already spent) is answered from the stored row.
    const replay = await submitContactMessage(ctx.db, { ...body, turnstileToken: "spent" }, freshIp());
    expect(first.created).toBe(true);
    expect(retry).toEqual({ id: first.id, created: false, stored: false });
    expect(replay).toEqual({ id: first.id, created: false, stored: false });
    const rows = await ctx.db.select({ id: contactMessages.id }).from(contactMessages).where(eq(contactMessages.clientId, clientId));
    expect(rows).toHaveLength(1);
    // The same id with different content is a client bug, not a retry.
    expect((await statusOf(submitContactMessage(ctx.db, { ...body, message: "other" }, freshIp()))).status).toBe(409);
  });

  it("stores one message when retries of one submission race", async () => {
    const clientId = randomUUID();
    const body = { ...contactForm(), clientId };
    const tokens = await Promise.all(Array.from({ length: 8 }, () => easyVerificationToken(ctx.db)));
    const results = await Promise.all(tokens.map((t) => submitContactMessage(ctx.db, { ...body, turnstileToken: t }, freshIp())));
    expect(new Set(results.map((r) => r.id)).size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
  });

  it("drops a filled honeypot silently: same answer, nothing stored", async () => {
    const before = await count();
    const result = await submitContactMessage(
      ctx.db,
      { ...contactForm(), website: "http://spam.example", turnstileToken: await easyVerificationToken(ctx.db) },
      freshIp(),
    );
    expect(result.created).toBe(true);
    expect(result.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await count()).toBe(before);
  });

  it("limits messages per IP (5 per 10 minutes by default), stored in the database", async () => {
    const ip = freshIp();
    for (let i = 0; i < 5; i++) {
      expect(
        (await statusOf(submitContactMessage(ctx.db, { ...contactForm(), turnstileToken: await easyVerificationToken(ctx.db) }, ip)))
          .status,
      ).toBe(0);
    }
    expect(
      (await statusOf(submitContactMessage(ctx.db, { ...contactForm(), turnstileToken: await easyVerificationToken(ctx.db) }, ip))).status,
    ).toBe(429);
    expect(
      (await statusOf(submitContactMessage(ctx.db, { ...contactForm(), turnstileToken: await easyVerificationToken(ctx.db) }, freshIp())))
        .status,
    ).toBe(0);
  });

  it("outbox without SMTP: the message stays stored, marked skipped; retry queues it again", async () => {
    await ctx.db.delete(contactMessages);
    const { id } = await submitContactMessage(ctx.db, { ...contactForm(), turnstileToken: await easyVerificationToken(ctx.db) }, freshIp());
    const outbox = new MailOutbox({ db: () => ctx.db });
    await outbox.drain();
    expect(await deliveryOf(ctx.db, id)).toMatchObject({ state: "skipped", attempts: 0, lastError: expect.stringMatching(/isn't set up/) });
    await retryMessageDelivery(ctx.db, ADMIN, id);
    await setMessageHandled(ctx.db, ADMIN, id, true);
    expect(await deliveryOf(ctx.db, id)).toMatchObject({ state: "pending", attempts: 0, lastError: null });
    const [after] = await ctx.db.select().from(contactMessages).where(eq(contactMessages.id, id));
    expect(after?.handledAt).toBeInstanceOf(Date);
  });

  it("inbox writes decide who may: the inbox is an administrator's (client leads), nobody else touches a message", async () => {
    await ctx.db.delete(contactMessages);
    const row = await makeContactMessage(ctx.db, { name: "Guarded", delivery: { state: "failed" } });
    const id = row.id;
    await expect(setMessageHandled(ctx.db, MODERATOR, id, true)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(retryMessageDelivery(ctx.db, MODERATOR, id)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(setMessageHandled(ctx.db, USER, id, true)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(retryMessageDelivery(ctx.db, USER, id)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(setMessageHandled(ctx.db, null, id, true)).rejects.toBeInstanceOf(UnauthorizedError);
    await expect(deleteContactMessage(ctx.db, MODERATOR, id)).rejects.toBeInstanceOf(ForbiddenError);
    const [unchanged] = await ctx.db.select().from(contactMessages).where(eq(contactMessages.id, id));
    expect(unchanged).toEqual(row);
    await deleteContactMessage(ctx.db, ADMIN, id);
    expect(await ctx.db.select().from(contactMessages).where(eq(contactMessages.id, id))).toEqual([]);
  });

  it("pages the inbox newest first, 50 a page, with the total; a page past the end is not found", async () => {
    await ctx.db.delete(contactMessages);
    const base = Date.UTC(2026, 0, 1);
    await ctx.db.insert(contactMessages).values(
      Array.from({ length: INBOX_PAGE_SIZE + 3 }, (_, i) => ({
        name: `Sender ${i}`,
        email: `s${i}@example.com`,
        message: `message ${i}`,
        createdAt: new Date(base + i * 60_000),
      })),
    );
    const first = await listContactMessages(ctx.db);
    expect(first).toMatchObject({ total: INBOX_PAGE_SIZE + 3, page: 1, pageCount: 2 });
    expect(first.messages).toHaveLength(INBOX_PAGE_SIZE);
    expect(first.messages[0]?.name).toBe(`Sender ${INBOX_PAGE_SIZE + 2}`);
    const second = await listContactMessages(ctx.db, 2);
    expect(second.messages.map((m) => m.name)).toEqual(["Sender 2", "Sender 1", "Sender 0"]);
    await expect(listContactMessages(ctx.db, 3)).rejects.toBeInstanceOf(NotFoundError);
    await ctx.db.delete(contactMessages);
    expect(await listContactMessages(ctx.db, 1)).toMatchObject({ total: 0, page: 1, pageCount: 1, messages: [] });
    await expect(listContactMessages(ctx.db, 2)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("adopts a message the previous release stored and did not deliver into the mail outbox, once", async () => {
    await ctx.db.delete(contactMessages);
    const ours = await submitContactMessage(ctx.db, { ...contactForm(), turnstileToken: await easyVerificationToken(ctx.db) }, freshIp());
    const theirs = await makeContactMessage(ctx.db, { legacyDeliveryState: "pending" });
    const crashed = await makeContactMessage(ctx.db, { legacyDeliveryState: "sending", legacyLockedUntil: new Date(Date.now() - 1000) });
    const sending = await makeContactMessage(ctx.db, { legacyDeliveryState: "sending", legacyLockedUntil: new Date(Date.now() + 60_000) });
    const delivered = await makeContactMessage(ctx.db, { legacyDeliveryState: "sent" });
    const restored = await makeContactMessage(ctx.db, { legacyDeliveryState: "pending", createdAt: new Date(Date.now() - 2 * 86_400_000) });

    expect(await adoptPreviousReleaseMessages(ctx.db)).toBe(2);
    expect(await adoptPreviousReleaseMessages(ctx.db)).toBe(0);
    const rows = await ctx.db
      .select({ id: contactMessages.id, state: contactMessages.legacyDeliveryState, key: mailOutbox.dedupeKey })
      .from(contactMessages)
      .leftJoin(mailOutbox, eq(mailOutbox.id, contactMessages.mailId));
    const byId = new Map(rows.map((row) => [row.id, row]));
    expect(byId.get(ours.id)).toEqual({ id: ours.id, state: "sent", key: `contact:${ours.id}` });
    for (const adopted of [theirs, crashed])
      expect(byId.get(adopted.id)).toEqual({ id: adopted.id, state: "sent", key: `contact:${adopted.id}` });
    // The previous release still holds a live lease on one; one it delivered, and a restored old one, stay as they are.
    expect(byId.get(sending.id)).toEqual({ id: sending.id, state: "sending", key: null });
    expect(byId.get(delivered.id)).toEqual({ id: delivered.id, state: "sent", key: null });
    expect(byId.get(restored.id)).toEqual({ id: restored.id, state: "pending", key: null });
    await ctx.db.delete(contactMessages);
  });

  outboxWithSmtp(ctx);
});

function outboxWithSmtp(ctx: { readonly db: import("~/server/db/client.server").Db }) {
  let smtp: TestSmtpServer;
  beforeAll(async () => {
    smtp = await startSmtpServer();
  });
  afterAll(async () => {
    delete process.env.SMTP_URL;
    delete process.env.CONTACT_TO;
    resetEnvForTests();
    await smtp.close();
  });
  const useSmtp = (url: string) => {
    process.env.SMTP_URL = url;
    process.env.CONTACT_TO = "owner@example.com";
    resetEnvForTests();
  };
  const submit = async (message: string) =>
    (
      await submitContactMessage(
        ctx.db,
        { name: "Visitor Name", email: "visitor@example.com", message, turnstileToken: await easyVerificationToken(ctx.db) },
        freshIp(),
      )
    ).id;

  it("outbox emails the owner with reply-to set to the visitor, and marks it sent", async () => {
    await ctx.db.delete(contactMessages);
    useSmtp(smtp.url);
    const id = await submit("Please call me back");
    await new MailOutbox({ db: () => ctx.db }).drain();
    const mail = smtp.received.find((m) => deliveredIds([m]).includes(id));
    expect(mail?.to).toEqual(["owner@example.com"]);
    expect(mail?.raw).toMatch(/^Reply-To: Visitor Name <visitor@example.com>/m);
    expect(mail?.raw).toMatch(/^Subject: Contact form: message from Visitor Name/m);
    expect(mail?.raw).toContain("Please call me back");
    const row = await deliveryOf(ctx.db, id);
    expect(row).toMatchObject({ state: "sent", attempts: 1, lastError: null, lockedUntil: null, recipient: "owner@example.com" });
    expect(row?.sentAt).toBeInstanceOf(Date);
  });

  it("records failures, backs off, and marks a message failed after the last attempt", async () => {
    await ctx.db.delete(contactMessages);
    smtp.mode = "reject";
    useSmtp(smtp.url);
    const id = await submit("Will not get through");
    const outbox = new MailOutbox({ db: () => ctx.db, maxAttempts: 3, retryBaseMs: 1000 });
    await outbox.drain();
    let row = await deliveryOf(ctx.db, id);
    const mailId = row?.id ?? "";
    expect(row).toMatchObject({ state: "pending", attempts: 1 });
    // The reason in words, with the server's own answer.
    expect(row?.lastError).toMatch(/refused the message for now.*451/i);
    const delay = (row?.nextAttemptAt.getTime() ?? 0) - Date.now();
    expect(delay).toBeGreaterThan(500);
    expect(delay).toBeLessThan(1300);
    // Not due yet: nothing is claimed.
    expect(await outbox.drain()).toBe(0);
    for (let attempt = 2; attempt <= 3; attempt++) {
      await ctx.db
        .update(mailOutbox)
        .set({ nextAttemptAt: sql`now()` })
        .where(eq(mailOutbox.id, mailId));
      await outbox.drain();
    }
    row = await deliveryOf(ctx.db, id);
    expect(row).toMatchObject({ state: "failed", attempts: 3 });
    await ctx.db
      .update(mailOutbox)
      .set({ nextAttemptAt: sql`now()` })
      .where(eq(mailOutbox.id, mailId));
    expect(await outbox.drain()).toBe(0);
    smtp.mode = "accept";
  });

  it("reclaims a message left 'sending' by a dead process once its lease ran out, never a live one", async () => {
    await ctx.db.delete(contactMessages);
    useSmtp(smtp.url);
    const live = await submit("Being sent by another instance");
    const dead = await submit("Left behind by a killed instance");
    const mailOf = async (id: string) => (await deliveryOf(ctx.db, id))?.id ?? "";
    await ctx.db
      .update(mailOutbox)
      .set({ state: "sending", lockedBy: "alive", lockedUntil: sql`now() + interval '1 minute'` })
      .where(eq(mailOutbox.id, await mailOf(live)));
    await ctx.db
      .update(mailOutbox)
      .set({ state: "sending", lockedBy: "killed", lockedUntil: sql`now() - interval '1 second'` })
      .where(eq(mailOutbox.id, await mailOf(dead)));
    expect(await new MailOutbox({ db: () => ctx.db }).drain()).toBe(1);
    expect((await deliveryOf(ctx.db, live))?.state).toBe("sending");
    expect((await deliveryOf(ctx.db, dead))?.state).toBe("sent");
  });

  it("two outboxes draining at once send each message exactly once", async () => {
    await ctx.db.delete(contactMessages);
    useSmtp(smtp.url);
    const before = smtp.received.length;
    const ids = await Promise.all(Array.from({ length: 30 }, (_, i) => submit(`parallel ${i}`)));
    await Promise.all([
      new MailOutbox({ db: () => ctx.db, batchSize: 4 }).drain(),
      new MailOutbox({ db: () => ctx.db, batchSize: 4 }).drain(),
    ]);
    const sent = deliveredIds(smtp.received.slice(before));
    expect(sent.sort()).toEqual([...ids].sort());
  });
}
