import { like, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { contactMessages, rateLimits } from "~/server/db/schema.server";
import { resetEnvForTests } from "~/server/env.server";
import { easyVerificationToken } from "../helpers/contact";
import { describeEachDatabase } from "../helpers/databases";
import { useSmtpServer } from "../helpers/smtp-suite";
import { contactForm, makeUser } from "../helpers/factories";
import { startTestServer, type TestServer } from "../helpers/test-server";

/**
 * Behind one proxy (TRUST_PROXY=1) the client address is the rightmost X-Forwarded-For entry — the
 * one our proxy appended. The test client plays both the attacker (who writes whatever it likes on the
 * left) and the proxy (which appends the real address on the right).
 */
const saved = { ...process.env };
beforeAll(() => {
  process.env.TRUST_PROXY = "1";
  process.env.LOGIN_RATE_LIMIT_PER_IP = "10";
  process.env.LOGIN_ACCOUNT_SLOWDOWN_AFTER = "12";
  process.env.CONTACT_RATE_LIMIT_PER_10_MIN = "3";
  process.env.LOG_LEVEL = "silent";
  resetEnvForTests();
});
afterAll(() => {
  process.env = saved;
  resetEnvForTests();
});

describeEachDatabase("client IP behind a proxy and login limits", (ctx) => {
  // Mail is set up (a local SMTP stand-in): without it subscribing and password resets are refused honestly.
  useSmtpServer();
  let server: TestServer;
  let counter = 0;
  const PASSWORD = "owner pass phrase for limits 9";
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const newIp = () => `203.0.113.${++counter}`;
  /** A forwarded chain whose leftmost (client-written) entry changes on every request. */
  const rotated = (realIp: string) => `10.${counter % 250}.${Math.floor(Math.random() * 250)}.${++counter % 250}, ${realIp}`;
  const login = async (forwardedFor: string, email: string, password: string) =>
    server.fetch("/api/auth/login", {
      method: "POST",
      headers: { origin: server.url, "content-type": "application/json", "x-forwarded-for": forwardedFor },
      body: JSON.stringify({ email, password, verificationToken: await easyVerificationToken(ctx.db) }),
    });

  it("a rotated leftmost X-Forwarded-For does not escape the per-IP login limit", async () => {
    const ip = newIp();
    for (let i = 0; i < 10; i++) {
      const victim = await makeUser(ctx.db, { password: PASSWORD });
      expect((await login(rotated(ip), victim.email, "wrong password")).status).toBe(401);
    }
    const other = await makeUser(ctx.db, { password: PASSWORD });
    const limited = await login(rotated(ip), other.email, PASSWORD);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    // Counted under the real address only.
    const keys = await ctx.db.select({ key: rateLimits.key }).from(rateLimits).where(like(rateLimits.key, "login:ip:10.%"));
    expect(keys).toEqual([]);
  });

  it("an attack on the owner's account from one address never locks the owner out of another address", async () => {
    const owner = await makeUser(ctx.db, { role: "admin", password: PASSWORD });
    const attacker = newIp();
    for (let i = 0; i < 5; i++) expect((await login(rotated(attacker), owner.email, `guess ${i}`)).status).toBe(401);
    // The pair (account, attacker's address) is now limited — even with the right password.
    const refused = await login(rotated(attacker), owner.email, PASSWORD);
    expect(refused.status).toBe(429);
    expect((await refused.json()).error).toMatch(/^Too many attempts\. Please try again in \d+ minutes?\.$/);
    // The owner, from home, signs in at once.
    const home = newIp();
    const ok = await login(home, owner.email, PASSWORD);
    expect(ok.status).toBe(200);
    expect(ok.headers.getSetCookie().some((c) => c.startsWith("sid="))).toBe(true);
  });

  it("a distributed attack past the account ceiling slows every attempt down but the owner still signs in", async () => {
    const owner = await makeUser(ctx.db, { role: "admin", password: PASSWORD });
    // 12 attempts (LOGIN_ACCOUNT_SLOWDOWN_AFTER) from 4 addresses, 3 each: no pair reaches its limit.
    for (let i = 0; i < 12; i++) {
      const started = Date.now();
      expect((await login(`198.18.0.${i % 4}`, owner.email, "wrong password")).status).toBe(401);
      expect(Date.now() - started).toBeLessThan(2000);
    }
    const started = Date.now();
    const ok = await login(newIp(), owner.email, PASSWORD);
    expect(ok.status).toBe(200);
    // The 13th attempt on the account waits 250 ms first.
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    const slower = Date.now();
    expect((await login(newIp(), owner.email, PASSWORD)).status).toBe(200);
    expect(Date.now() - slower).toBeGreaterThanOrEqual(500);
  });

  it("a rotated leftmost X-Forwarded-For does not escape the password-reset and contact limits", async () => {
    const ip = newIp();
    const reset = async (email: string) =>
      server.fetch("/auth", {
        method: "POST",
        headers: { origin: server.url, "x-forwarded-for": rotated(ip) },
        body: new URLSearchParams({ intent: "forgot", email, verificationToken: await easyVerificationToken(ctx.db) }),
      });
    for (let i = 0; i < 10; i++) expect((await reset(`someone-${i}-${counter}@test.example`)).status).toBe(302);
    expect((await reset(`someone-else-${counter}@test.example`)).status).toBe(429);

    const contactIp = newIp();
    const before = (await ctx.db.select({ n: sql<number>`count(*)::int` }).from(contactMessages))[0]?.n ?? 0;
    const contact = async () =>
      server.fetch("/api/send-contact-email", {
        method: "POST",
        headers: { origin: server.url, "content-type": "application/json", "x-forwarded-for": rotated(contactIp) },
        body: JSON.stringify({ ...contactForm(), turnstileToken: await easyVerificationToken(ctx.db) }),
      });
    for (let i = 0; i < 3; i++) expect((await contact()).status).toBe(201);
    expect((await contact()).status).toBe(429);
    const after = (await ctx.db.select({ n: sql<number>`count(*)::int` }).from(contactMessages))[0]?.n ?? 0;
    expect(after - before).toBe(3);
  });
});
