import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq, like } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { rateLimits, session } from "~/server/db/schema.server";
import { describeEachDatabase } from "../helpers/databases";
import { useSmtpServer } from "../helpers/smtp-suite";
import { makeUser } from "../helpers/factories";
import { startTestServer, type TestServer } from "../helpers/test-server";

/**
 * Sign-in with Cloudflare Turnstile configured (TURNSTILE_VERIFY_URL pointed at a local siteverify
 * server), and the login and reset rate limits, all through real HTTP on the production build.
 * The build reads its configuration once, so everything is set before the server starts.
 */
const SITE_KEY = "1x-test-site-key";
const SECRET = "0x-test-secret-key";

interface SiteverifyCall {
  secret: string | null;
  response: string | null;
  remoteip: string | null;
}
const calls: SiteverifyCall[] = [];
let siteverifyMode: "normal" | "broken" = "normal";

// A stand-in for https://challenges.cloudflare.com/turnstile/v0/siteverify: tokens starting with
// "pass-" are valid (as often as they are presented: single use is our server's job), others not.
const siteverify = http.createServer((req, res) => {
  let raw = "";
  req.on("data", (chunk: Buffer) => (raw += chunk.toString()));
  req.on("end", () => {
    const form = new URLSearchParams(raw);
    calls.push({ secret: form.get("secret"), response: form.get("response"), remoteip: form.get("remoteip") });
    if (siteverifyMode === "broken") {
      res.writeHead(502, { "content-type": "text/html" }).end("<h1>Bad gateway</h1>");
      return;
    }
    const success = form.get("secret") === SECRET && (form.get("response") ?? "").startsWith("pass-");
    res
      .writeHead(200, { "content-type": "application/json" })
      .end(JSON.stringify(success ? { success } : { success, "error-codes": ["invalid-input-response"] }));
  });
});

const saved = { ...process.env };
let tokenCounter = 0;
const passToken = () => `pass-${Date.now()}-${++tokenCounter}`;

beforeAll(async () => {
  await new Promise<void>((resolve) => siteverify.listen(0, "127.0.0.1", resolve));
  const { port } = siteverify.address() as AddressInfo;
  process.env.TURNSTILE_SITE_KEY = SITE_KEY;
  process.env.TURNSTILE_SECRET_KEY = SECRET;
  process.env.TURNSTILE_VERIFY_URL = `http://127.0.0.1:${port}/turnstile/v0/siteverify`;
  // Each test signs in from its own address (X-Forwarded-For), so the per-IP limits do not mix.
  process.env.TRUST_PROXY = "1";
  process.env.LOGIN_RATE_LIMIT_PER_IP = "10";
  process.env.LOG_LEVEL = "silent";
});
afterAll(async () => {
  process.env = saved;
  await new Promise<void>((resolve) => siteverify.close(() => resolve()));
});

describeEachDatabase("sign-in with Turnstile and rate limits", (ctx) => {
  // Mail is set up (a local SMTP stand-in): without it subscribing and password resets are refused honestly.
  useSmtpServer();
  let server: TestServer;
  let ipCounter = 0;
  const PASSWORD = "turnstile pass phrase 42";
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const newIp = () => `198.51.100.${++ipCounter}`;
  const newAccount = async () => makeUser(ctx.db, { role: "moderator", password: PASSWORD });

  const login = (ip: string, body: Record<string, string>) =>
    server.fetch("/api/auth/login", {
      method: "POST",
      headers: { origin: server.url, "content-type": "application/json", "x-forwarded-for": ip },
      body: JSON.stringify(body),
    });

  it("the /auth page offers the Turnstile widget with the site key, not ALTCHA", async () => {
    const html = await (await server.fetch("/auth")).text();
    expect(html).toContain(SITE_KEY);
    expect(html).toContain("turnstile");
    expect(html).not.toContain("/api/verification/challenge");
  });

  it("signs in when siteverify accepts the token, sending the secret, token and client address", async () => {
    const account = await newAccount();
    const ip = newIp();
    const token = passToken();
    const response = await login(ip, { email: account.email, password: PASSWORD, verificationToken: token });
    expect(response.status).toBe(200);
    expect(response.headers.getSetCookie().some((c) => c.startsWith("sid=") && /HttpOnly/.test(c) && /SameSite=Lax/.test(c))).toBe(true);
    expect(calls.at(-1)).toEqual({ secret: SECRET, response: token, remoteip: ip });
  });

  it("refuses a token siteverify rejects (403, a message, no session)", async () => {
    const account = await newAccount();
    const response = await login(newIp(), { email: account.email, password: PASSWORD, verificationToken: "fail-token" });
    expect(response.status).toBe(403);
    expect((await response.json()).error).toBe("Verification failed. Please complete the security verification again.");
    expect(await ctx.db.select({ id: session.id }).from(session).where(eq(session.userId, account.id))).toEqual([]);
  });

  it("a token works once, even though siteverify would accept it again", async () => {
    const account = await newAccount();
    const ip = newIp();
    const token = passToken();
    expect((await login(ip, { email: account.email, password: PASSWORD, verificationToken: token })).status).toBe(200);
    const again = await login(ip, { email: account.email, password: PASSWORD, verificationToken: token });
    expect(again.status).toBe(403);
    expect((await again.json()).error).toMatch(/Verification failed/);
  });

  it("an unreachable or broken siteverify refuses the login with 403, never a 500", async () => {
    const account = await newAccount();
    siteverifyMode = "broken";
    try {
      const response = await login(newIp(), { email: account.email, password: PASSWORD, verificationToken: passToken() });
      expect(response.status).toBe(403);
    } finally {
      siteverifyMode = "normal";
    }
  });

  it("the /auth form signs in through Turnstile too (document POST → /admin with 'Welcome back!')", async () => {
    const account = await newAccount();
    const response = await server.fetch("/auth", {
      method: "POST",
      headers: { origin: server.url, "x-forwarded-for": newIp() },
      body: new URLSearchParams({ intent: "login", email: account.email, password: PASSWORD, verificationToken: passToken() }),
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/admin");
    const toast = response.headers.getSetCookie().find((c) => c.startsWith("toast="));
    expect(Buffer.from(toast?.split(";")[0]?.slice(6) ?? "", "base64url").toString()).toContain("Welcome back!");
  });

  it("limits failed logins per account and address (5 in 15 minutes) with a 429, Retry-After and a clear message, stored in the database; other addresses still sign in", async () => {
    const account = await newAccount();
    const ip = newIp();
    for (let i = 0; i < 5; i++) {
      const wrong = await login(ip, { email: account.email, password: "wrong password", verificationToken: passToken() });
      expect(wrong.status).toBe(401);
      expect((await wrong.json()).error).toBe("Invalid login credentials");
    }
    // From that address even the right password is refused for this account...
    const limited = await login(ip, { email: account.email, password: PASSWORD, verificationToken: passToken() });
    expect(limited.status).toBe(429);
    expect((await limited.json()).error).toMatch(/^Too many attempts\. Please try again in \d+ minutes?\.$/);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    const [row] = await ctx.db
      .select({ count: rateLimits.count })
      .from(rateLimits)
      .where(eq(rateLimits.key, `login:account-ip:${account.email}|${ip}`));
    expect(row?.count).toBe(6);
    // ...but the account is not locked: its owner signs in from another address.
    expect((await login(newIp(), { email: account.email, password: PASSWORD, verificationToken: passToken() })).status).toBe(200);
  });

  it("limits logins per IP address (LOGIN_RATE_LIMIT_PER_IP) across different accounts", async () => {
    const ip = newIp();
    for (let i = 0; i < 10; i++) {
      const account = await newAccount();
      expect((await login(ip, { email: account.email, password: "wrong password", verificationToken: passToken() })).status).toBe(401);
    }
    const account = await newAccount();
    const limited = await login(ip, { email: account.email, password: PASSWORD, verificationToken: passToken() });
    expect(limited.status).toBe(429);
    expect((await limited.json()).error).toMatch(/Too many attempts/);
    // Another address is not affected.
    expect((await login(newIp(), { email: account.email, password: PASSWORD, verificationToken: passToken() })).status).toBe(200);
  });

  const requestReset = (ip: string, email: string) =>
    server.fetch("/auth", {
      method: "POST",
      headers: { origin: server.url, "x-forwarded-for": ip },
      body: new URLSearchParams({ intent: "forgot", email, verificationToken: passToken() }),
    });

  it("password reset: the same answer for a known and an unknown address; limited per address (3 an hour) with 429", async () => {
    const account = await newAccount();
    const unknown = `nobody-${Date.now()}@test.example`;
    for (const email of [account.email, unknown]) {
      const response = await requestReset(newIp(), email);
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe("/auth");
      const toast = response.headers.getSetCookie().find((c) => c.startsWith("toast="));
      expect(Buffer.from(toast?.split(";")[0]?.slice(6) ?? "", "base64url").toString()).toContain("Check your email!");
    }
    for (let i = 0; i < 2; i++) expect((await requestReset(newIp(), account.email)).status).toBe(302);
    const limited = await requestReset(newIp(), account.email);
    expect(limited.status).toBe(429);
    expect(await limited.text()).toMatch(/Too many attempts\. Please try again in \d+ minutes?\./);
  });

  it("password reset: limited per IP address (10 in 15 minutes) across addresses", async () => {
    const ip = newIp();
    for (let i = 0; i < 10; i++) expect((await requestReset(ip, `someone-${i}-${Date.now()}@test.example`)).status).toBe(302);
    const limited = await requestReset(ip, `someone-else-${Date.now()}@test.example`);
    expect(limited.status).toBe(429);
    const keys = await ctx.db
      .select({ key: rateLimits.key })
      .from(rateLimits)
      .where(like(rateLimits.key, `reset:ip:${ip}`));
    expect(keys).toHaveLength(1);
  });
});
