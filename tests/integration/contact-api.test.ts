import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { contactMessages } from "~/server/db/schema.server";
import { resetEnvForTests } from "~/server/env.server";
import { easyVerificationToken } from "../helpers/contact";
import { describeEachDatabase } from "../helpers/databases";
import { contactForm } from "../helpers/factories";
import { startTestServer, type TestServer } from "../helpers/test-server";

const saved = { ...process.env };
beforeAll(() => {
  process.env.AUTH_SECRET = "contact-api-secret-0123456789abcdef0123";
  process.env.LOG_LEVEL = "silent";
  process.env.CONTACT_RATE_LIMIT_PER_10_MIN = "3";
  resetEnvForTests();
});
afterAll(() => {
  process.env = saved;
  resetEnvForTests();
});

describeEachDatabase("send-contact-email and the /contact form over HTTP", (ctx) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
    await server.fetch("/healthz");
  });
  afterAll(() => server.close());
  const count = async () => (await ctx.db.select({ n: sql<number>`count(*)::int` }).from(contactMessages))[0]?.n ?? 0;
  const post = (body: unknown, contentType = "application/json") =>
    server.fetch("/api/send-contact-email", {
      method: "POST",
      headers: { origin: server.url, "content-type": contentType },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });

  it("answers 400 with per-field errors, 403 without verification, 405 for GET — and stores nothing", async () => {
    await ctx.db.delete(contactMessages);
    const invalid = await post({ name: "", email: "nope", message: "x", turnstileToken: "t" });
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toEqual({
      error: "Please correct the highlighted fields.",
      fieldErrors: { name: ["Name is required"], email: ["Invalid email address"] },
    });
    const notJson = await post("name=x", "application/x-www-form-urlencoded");
    expect(notJson.status).toBe(400);
    expect((await notJson.json()).error).toBeTruthy();
    const unverified = await post(contactForm());
    expect(unverified.status).toBe(403);
    expect((await unverified.json()).error).toBe("Please complete the security verification.");
    const forged = await post({ ...contactForm(), turnstileToken: "forged" });
    expect(forged.status).toBe(403);
    expect((await server.fetch("/api/send-contact-email")).status).toBe(405);
    expect(await count()).toBe(0);
  });

  it("stores a verified message (201 with its id) and answers a retry of it with 200 and the same id", async () => {
    await ctx.db.execute(sql`delete from rate_limits`);
    const body = { ...contactForm(), clientId: randomUUID() };
    const first = await post({ ...body, turnstileToken: await easyVerificationToken(ctx.db) });
    expect(first.status).toBe(201);
    const { id, ok } = (await first.json()) as { id: string; ok: boolean };
    expect(ok).toBe(true);
    const again = await post({ ...body, turnstileToken: await easyVerificationToken(ctx.db) });
    expect(again.status).toBe(200);
    expect((await again.json()).id).toBe(id);
    const [row] = await ctx.db.select({ ip: contactMessages.ipAddress }).from(contactMessages).where(eq(contactMessages.id, id));
    expect(row?.ip).toMatch(/127\.0\.0\.1/);
  });

  it("rate-limits per IP with 429 and Retry-After, after validation and verification", async () => {
    await ctx.db.execute(sql`delete from rate_limits`);
    for (let i = 0; i < 3; i++)
      expect((await post({ ...contactForm(), turnstileToken: await easyVerificationToken(ctx.db) })).status).toBe(201);
    const before = await count();
    const limited = await post({ ...contactForm(), turnstileToken: await easyVerificationToken(ctx.db) });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await limited.json()).error).toMatch(/try again later/);
    // Invalid input is still told what is wrong (validation comes first).
    expect((await post({ ...contactForm(), name: "" })).status).toBe(400);
    expect(await count()).toBe(before);
  });

  it("works as a plain form post: field errors with values kept, then a server-rendered thank-you", async () => {
    await ctx.db.execute(sql`delete from rate_limits`);
    const form = (fields: Record<string, string>) =>
      server.fetch("/contact", {
        method: "POST",
        headers: { origin: server.url, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(fields).toString(),
      });
    const invalid = await form({ name: "Grace Hopper", email: "not-an-address", message: "" });
    expect(invalid.status).toBe(400);
    const invalidHtml = await invalid.text();
    expect(invalidHtml).toContain("Invalid email address");
    expect(invalidHtml).toContain("Message is required");
    expect(invalidHtml).toContain('value="Grace Hopper"');
    expect(invalidHtml).toContain('value="not-an-address"');

    const unverified = await form({ name: "Grace Hopper", email: "grace@example.com", message: "Hello" });
    expect(unverified.status).toBe(403);
    expect(await unverified.text()).toContain("Please complete the security verification.");

    const clientId = randomUUID();
    const fields = {
      name: "Grace Hopper",
      email: "grace@example.com",
      message: "Hello from a form",
      clientId,
      turnstileToken: await easyVerificationToken(ctx.db),
    };
    const sent = await form(fields);
    expect(sent.status).toBe(200);
    const html = await sent.text();
    expect(html).toContain("Thank you, Grace!");
    // A second post of the same rendered form stores nothing new.
    expect((await form({ ...fields, turnstileToken: await easyVerificationToken(ctx.db) })).status).toBe(200);
    expect(
      await ctx.db.select({ id: contactMessages.id }).from(contactMessages).where(eq(contactMessages.clientId, clientId)),
    ).toHaveLength(1);
  });

  it("renders the page with its heading, side card and SEO tags", async () => {
    const html = await (await server.fetch("/contact")).text();
    expect(html).toContain("Let&#x27;s Connect");
    expect(html).toContain("Response time: 24-48 hours on business days");
    expect(html).toMatch(/<link rel="canonical" href="[^"]*\/contact"/);
    expect(html).toContain('name="website"');
  });
});
