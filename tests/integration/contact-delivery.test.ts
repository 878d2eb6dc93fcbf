import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import "~/features/contact/outbox.server";
import { MailOutbox } from "~/server/mail-outbox.server";
import { contactMessages, mailOutbox } from "~/server/db/schema.server";
import { resetEnvForTests } from "~/server/env.server";
import { deliveredIds, easyVerificationToken, waitFor } from "../helpers/contact";
import { describeEachDatabase } from "../helpers/databases";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp";
import { startTestServer, type TestServer } from "../helpers/test-server";

/**
 * Durability of the contact form over real HTTP (the production build) with a real SMTP server:
 * nothing a visitor sends is lost, nothing is stored or delivered twice.
 */
const saved = { ...process.env };
beforeAll(() => {
  process.env.AUTH_SECRET = "contact-delivery-secret-0123456789abcdef";
  process.env.LOG_LEVEL = "silent";
  // Every request comes from 127.0.0.1 here; the per-IP limit itself is tested in contact-api.test.ts.
  process.env.CONTACT_RATE_LIMIT_PER_10_MIN = "100000";
  process.env.CONTACT_TO = "owner@example.com";
  resetEnvForTests();
});
afterAll(() => {
  process.env = saved;
  resetEnvForTests();
});

describeEachDatabase("contact delivery", (ctx) => {
  let server: TestServer;
  let smtp: TestSmtpServer;
  let outbox: MailOutbox | undefined;
  beforeAll(async () => {
    server = await startTestServer();
    // The first requests to a fresh request handler race while React Router derives its routes
    // (reported to the lead); one request first, then the burst.
    await server.fetch("/healthz");
    await server.fetch("/contact");
    smtp = await startSmtpServer();
    process.env.SMTP_URL = smtp.url;
    resetEnvForTests();
  });
  afterAll(async () => {
    await outbox?.stop();
    await smtp.close();
    await server.close();
  });

  const post = (body: unknown) =>
    server.fetch("/api/send-contact-email", {
      method: "POST",
      headers: { origin: server.url, "content-type": "application/json" },
      body: JSON.stringify(body),
    });

  async function submitMany(n: number, label: string) {
    const submissions = await Promise.all(
      Array.from({ length: n }, async (_, i) => ({
        name: `Visitor ${i}`,
        email: `visitor${i}@example.com`,
        message: `${label} message ${i}`,
        clientId: randomUUID(),
        turnstileToken: await easyVerificationToken(ctx.db),
      })),
    );
    const responses = await Promise.all(submissions.map((s) => post(s)));
    const bodies = await Promise.all(
      responses.map(async (r) => {
        const text = await r.text();
        if (!text.startsWith("{")) throw new Error(`HTTP ${r.status}: ${text.slice(0, 2000)}`);
        return { status: r.status, body: JSON.parse(text) as { id?: string } };
      }),
    );
    return { submissions, bodies };
  }

  const storedCount = async () => (await ctx.db.select({ n: sql<number>`count(*)::int` }).from(contactMessages))[0]?.n ?? 0;
  const deliveries = () =>
    ctx.db
      .select({ attempts: mailOutbox.attempts, lastError: mailOutbox.lastError, state: mailOutbox.state })
      .from(contactMessages)
      .innerJoin(mailOutbox, eq(mailOutbox.id, contactMessages.mailId));
  const sentCount = async () => (await deliveries()).filter((r) => r.state === "sent").length;

  it("200 concurrent submissions: 200 stored, 200 delivered, no duplicates (retries included)", async () => {
    await ctx.db.delete(contactMessages);
    const started = smtp.received.length;
    const { submissions, bodies } = await submitMany(200, "concurrent");
    expect(bodies.map((b) => b.status)).toEqual(Array(200).fill(201));
    // The browser retries 50 of them (same client id, fresh token): still one message each.
    const retries = await Promise.all(
      submissions.slice(0, 50).map(async (s) => post({ ...s, turnstileToken: await easyVerificationToken(ctx.db) })),
    );
    expect(retries.map((r) => r.status)).toEqual(Array(50).fill(200));
    expect(await storedCount()).toBe(200);

    outbox = new MailOutbox({ db: () => ctx.db, pollMs: 200 });
    await outbox.start();
    await waitFor(async () => (await sentCount()) === 200, 45_000, "200 messages sent");
    await outbox.stop();
    outbox = undefined;

    const ids = deliveredIds(smtp.received.slice(started));
    expect(ids).toHaveLength(200);
    expect(new Set(ids).size).toBe(200);
    expect(new Set(ids)).toEqual(new Set(bodies.map((b) => b.body.id)));
  }, 240_000);

  it("SMTP down for a while: messages are kept, retried with backoff, and all delivered after it returns", async () => {
    await ctx.db.delete(contactMessages);
    const port = smtp.port;
    await smtp.close();
    const { bodies } = await submitMany(20, "outage");
    expect(bodies.every((b) => b.status === 201)).toBe(true);

    outbox = new MailOutbox({ db: () => ctx.db, pollMs: 100, retryBaseMs: 500 });
    await outbox.start();
    // Every message fails at least once while the server is down, with the error recorded.
    await waitFor(
      async () => {
        const rows = await deliveries();
        return rows.length === 20 && rows.every((r) => r.attempts >= 1 && r.lastError && r.state !== "sent");
      },
      15_000,
      "failed attempts while SMTP is down",
    );
    await new Promise((r) => setTimeout(r, 1500));
    expect(await sentCount()).toBe(0);

    smtp = await startSmtpServer({ port });
    await waitFor(async () => (await sentCount()) === 20, 30_000, "delivery after SMTP returned");
    await outbox.stop();
    outbox = undefined;
    const ids = deliveredIds(smtp.received);
    expect(new Set(ids)).toEqual(new Set(bodies.map((b) => b.body.id)));
    expect(ids).toHaveLength(20);
    const rows = await deliveries();
    expect(rows.every((r) => r.lastError === null && r.attempts >= 2)).toBe(true);
  });
});
