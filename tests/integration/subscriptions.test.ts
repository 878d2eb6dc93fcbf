import { createHash } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { subscriberToken } from "~/features/subscriptions/subscriptions.server";
import { subscribers } from "~/server/db/schema.server";
import { resetEnvForTests } from "~/server/env.server";
import { easyVerificationToken } from "../helpers/contact";
import { describeEachDatabase } from "../helpers/databases";
import { useSmtpServer } from "../helpers/smtp-suite";
import { signedInAs } from "../helpers/factories";
import { startTestServer, type TestServer } from "../helpers/test-server";

const saved = { ...process.env };
beforeAll(() => {
  process.env.AUTH_SECRET = "subscriptions-secret-0123456789abcdef0123";
  process.env.LOG_LEVEL = "silent";
  resetEnvForTests();
});
afterAll(() => {
  process.env = saved;
  resetEnvForTests();
});

describeEachDatabase("subscriptions over HTTP", (ctx) => {
  // Mail is set up (a local SMTP stand-in): without it subscribing and password resets are refused honestly.
  useSmtpServer();
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());
  let n = 0;
  const address = () => `http-${++n}-${Date.now()}@subscribers.example`;
  const form = (path: string, fields: [string, string][], headers: Record<string, string> = {}) =>
    server.fetch(path, { method: "POST", headers: { origin: server.url, ...headers }, body: new URLSearchParams(fields) });
  const rowOf = async (email: string) => (await ctx.db.select().from(subscribers).where(eq(subscribers.email, email)))[0];

  it("a plain form post subscribes (pending) with verification, and says why without it", async () => {
    await ctx.db.execute(sql`delete from rate_limits`);
    const email = address();
    const refused = await form("/subscribe", [
      ["email", email],
      ["categories", "Fun"],
    ]);
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain("Please complete the security verification.");
    const invalid = await form("/subscribe", [["email", "nope"]]);
    expect(invalid.status).toBe(400);
    const invalidPage = await invalid.text();
    expect(invalidPage).toContain("Invalid email address");
    expect(invalidPage).toContain("Choose at least one category");
    expect(await rowOf(email)).toBeUndefined();
    const accepted = await form("/subscribe", [
      ["email", email.toUpperCase()],
      ["categories", "Fun"],
      ["categories", "Faith"],
      ["verificationToken", await easyVerificationToken(ctx.db)],
    ]);
    expect(accepted.status).toBe(200);
    expect(await accepted.text()).toContain("Check your inbox: we sent you a link to confirm your subscription.");
    expect(await rowOf(email)).toMatchObject({ state: "pending", categories: ["Fun", "Faith"] });
  });

  it("the confirmation link shows a button; its POST confirms once", async () => {
    const email = address();
    const token = `known-token-${n}`;
    await ctx.db.insert(subscribers).values({
      email,
      categories: ["Fitness"],
      confirmTokenHash: createHash("sha256").update(token).digest("base64url"),
      confirmExpiresAt: new Date(Date.now() + 60_000),
    });
    const page = await server.fetch(`/subscribe/confirm?token=${token}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Confirm subscription");
    expect((await rowOf(email))?.state).toBe("pending");
    const confirmed = await form("/subscribe/confirm", [["token", token]]);
    expect(await confirmed.text()).toContain("You&#x27;re subscribed.");
    expect((await rowOf(email))?.state).toBe("confirmed");
    const again = await form("/subscribe/confirm", [["token", token]]);
    expect(await again.text()).toContain("This confirmation link is invalid or has expired.");
  });

  it("RFC 8058: a POST to the unsubscribe URL (as a mail provider sends it, no Origin) unsubscribes; GET only asks", async () => {
    const email = address();
    const [row] = await ctx.db
      .insert(subscribers)
      .values({ email, categories: ["Fun"], state: "confirmed" })
      .returning();
    const token = encodeURIComponent(await subscriberToken(ctx.db, row?.id ?? ""));
    const page = await server.fetch(`/unsubscribe?token=${token}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(email);
    expect((await rowOf(email))?.state).toBe("confirmed");
    const manage = await server.fetch(`/subscribe/manage?token=${token}`);
    expect(manage.status).toBe(200);
    expect(await manage.text()).toContain("Save categories");
    const oneClick = await server.fetch(`/unsubscribe?token=${token}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(oneClick.status).toBe(200);
    expect((await rowOf(email))?.state).toBe("unsubscribed");
    const forged = await server.fetch(`/unsubscribe?token=${row?.id ?? ""}.forged`, { method: "POST" });
    expect(forged.status).toBe(404);
    expect((await server.fetch("/unsubscribe?token=nonsense")).status).toBe(404);
  });

  it("/admin/subscribers and its CSV: admins only", async () => {
    const admin = await signedInAs(ctx.db, "admin");
    const moderator = await signedInAs(ctx.db, "moderator");
    const email = `+evil-${++n}@subscribers.example`;
    await ctx.db.insert(subscribers).values({ email, categories: ["Family"], state: "confirmed" });
    const page = await server.fetch("/admin/subscribers", { headers: { cookie: admin.cookie } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Confirmed subscribers by category");
    expect(html).toContain(email);
    const csv = await server.fetch("/admin/subscribers.csv", { headers: { cookie: admin.cookie } });
    expect(csv.headers.get("content-type")).toContain("text/csv");
    expect(await csv.text()).toContain(`"'${email}","confirmed","Family"`);
    expect((await server.fetch("/admin/subscribers", { headers: { cookie: moderator.cookie } })).status).toBe(403);
    expect((await server.fetch("/admin/subscribers.csv", { headers: { cookie: moderator.cookie } })).status).toBe(403);
    expect((await server.fetch("/admin/subscribers.csv")).status).toBe(401);
    const [row] = await ctx.db.select().from(subscribers).where(eq(subscribers.email, email));
    const deleted = await form(
      "/admin/subscribers",
      [
        ["intent", "delete"],
        ["id", row?.id ?? ""],
      ],
      { cookie: admin.cookie },
    );
    expect(deleted.status).toBe(302);
    expect(await rowOf(email)).toBeUndefined();
    const bad = await form(
      "/admin/subscribers",
      [
        ["intent", "delete"],
        ["id", "not-an-id"],
      ],
      { cookie: admin.cookie },
    );
    expect(bad.status).toBe(400);
  });
});
