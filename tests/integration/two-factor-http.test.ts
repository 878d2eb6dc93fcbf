import { and, eq } from "drizzle-orm";
import { generate } from "otplib";
import { afterAll, beforeAll, expect, it } from "vitest";
import { INVALID_CODE } from "~/features/auth/two-factor-schema";
import { readSecuritySettings } from "~/features/settings/settings.server";
import { auditLog } from "~/server/db/schema.server";
import { resetEnvForTests } from "~/server/env.server";
import { easyVerificationToken } from "../helpers/contact";
import { describeEachDatabase } from "../helpers/databases";
import { signedInAs } from "../helpers/factories";
import { publicSiteUrl } from "~/features/settings/site-url.server";
import { softwarePasskey } from "../helpers/software-passkey";
import { setCookies } from "../helpers/server-process";
import { startTestServer, type TestServer } from "../helpers/test-server";

/**
 * Two-factor authentication through the production server: setting it up on
 * /admin/account, the second sign-in step on /auth, and the setting that requires it of staff.
 */
const saved = { ...process.env };
beforeAll(() => {
  process.env.LOGIN_RATE_LIMIT_PER_IP = "200";
  process.env.LOG_LEVEL = "silent";
  resetEnvForTests();
});
afterAll(() => {
  process.env = saved;
  resetEnvForTests();
});

const nowPlus = (seconds: number) => Math.floor(Date.now() / 1000) + seconds;

describeEachDatabase("two-factor authentication over HTTP", (ctx) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const post = (path: string, fields: Record<string, string>, cookie = "") =>
    server.fetch(path, { method: "POST", headers: { origin: server.url, cookie }, body: new URLSearchParams(fields) });
  const get = (path: string, cookie = "") => server.fetch(path, { headers: { cookie } });

  /** Sets up an authenticator app the way a person does on /admin/account; returns its key and the recovery codes. */
  async function enroll(cookie: string) {
    expect((await post("/admin/account", { intent: "2fa-start" }, cookie)).status).toBe(200);
    const page = await (await get("/admin/account", cookie)).text();
    expect(page).toMatch(/<img[^>]*src="data:image\/svg\+xml;base64,[^"]+"[^>]*alt="QR code for your authenticator app"/);
    const secret = page.match(/data-testid="totp-secret"[^>]*>([A-Z2-7 ]+)</)?.[1]?.replace(/ /g, "") ?? "";
    expect(secret.length).toBeGreaterThanOrEqual(26);
    const wrong = await post("/admin/account", { intent: "2fa-confirm", code: "000000" }, cookie);
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain(INVALID_CODE);
    const confirmed = await post("/admin/account", { intent: "2fa-confirm", code: await generate({ secret }) }, cookie);
    expect(confirmed.status).toBe(200);
    const html = await confirmed.text();
    const list = html.match(/data-testid="recovery-codes"[^>]*>(.*?)<\/ul>/)?.[1] ?? "";
    const codes = list.match(/[a-z2-9]{5}-[a-z2-9]{5}/g) ?? [];
    expect(codes).toHaveLength(10);
    return { secret, codes };
  }

  /** The password step: returns the pending sign-in's cookie (and checks no session was made). */
  async function passwordStep(email: string, password: string): Promise<string> {
    const response = await post("/auth", { intent: "login", email, password, verificationToken: await easyVerificationToken(ctx.db) });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/auth");
    const cookies = setCookies(response);
    expect(cookies.has("sid")).toBe(false);
    const pending = cookies.get("2fa");
    expect(pending).toBeTruthy();
    return `2fa=${pending}`;
  }

  it("password only → no session until the code; a wrong code is a 401 with a message; the right one signs in once", async () => {
    const staff = await signedInAs(ctx.db, "admin");
    const { secret } = await enroll(staff.cookie);

    const pending = await passwordStep(staff.email, staff.password);
    // Not signed in: the admin area still sends to /auth, which asks for the code.
    expect((await get("/admin", pending)).headers.get("location")).toBe("/auth");
    const step = await (await get("/auth", pending)).text();
    expect(step).toContain("Authentication code");
    expect(step).not.toContain('name="password"');

    const wrong = await post("/auth", { intent: "2fa", code: "000000" }, pending);
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain(INVALID_CODE);
    expect((await post("/auth", { intent: "2fa", code: "" }, pending)).status).toBe(400);
    expect((await post("/auth", { intent: "2fa", code: "x".repeat(5000) }, pending)).status).toBe(400);
    // A forged pending sign-in is no sign-in.
    expect((await post("/auth", { intent: "2fa", code: "123456" }, "2fa=forged")).status).toBe(401);
    const failed = await ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.actorId, staff.id), eq(auditLog.action, "auth.sign-in.2fa-failed")));
    expect(failed).toHaveLength(1);

    // The setup used this 30-second step; the next one's code is accepted (one step of clock drift).
    const code = await generate({ secret, epoch: nowPlus(30) });
    const ok = await post("/auth", { intent: "2fa", code }, pending);
    expect(ok.status).toBe(302);
    expect(ok.headers.get("location")).toBe("/admin");
    const cookies = setCookies(ok);
    expect(cookies.get("2fa")).toBe("");
    const session = `sid=${cookies.get("sid")}`;
    expect((await get("/admin", session)).status).toBe(200);

    // The pending sign-in is used up, and the code cannot be replayed on a new one.
    expect((await post("/auth", { intent: "2fa", code }, pending)).status).toBe(401);
    const again = await passwordStep(staff.email, staff.password);
    const replay = await post("/auth", { intent: "2fa", code }, again);
    expect(replay.status).toBe(401);
    expect(setCookies(replay).has("sid")).toBe(false);
  });

  it("a recovery code signs in once; the JSON login answers twoFactorRequired without a session", async () => {
    const staff = await signedInAs(ctx.db, "moderator");
    const { codes } = await enroll(staff.cookie);
    const [code = ""] = codes;
    const first = await post("/auth", { intent: "2fa", code: code.toUpperCase() }, await passwordStep(staff.email, staff.password));
    expect(first.status).toBe(302);
    expect(setCookies(first).has("sid")).toBe(true);
    const second = await post("/auth", { intent: "2fa", code }, await passwordStep(staff.email, staff.password));
    expect(second.status).toBe(401);

    // 'Back to login' ends the pending sign-in: its cookie no longer leads to a session.
    const abandoned = await passwordStep(staff.email, staff.password);
    const back = await post("/auth", { intent: "2fa-cancel" }, abandoned);
    expect(back.headers.get("location")).toBe("/auth");
    expect(setCookies(back).get("2fa")).toBe("");
    expect((await post("/auth", { intent: "2fa", code: codes[1] ?? "" }, abandoned)).status).toBe(401);

    const json = await server.fetch("/api/auth/login", {
      method: "POST",
      headers: { origin: server.url, "content-type": "application/json" },
      body: JSON.stringify({ email: staff.email, password: staff.password, verificationToken: await easyVerificationToken(ctx.db) }),
    });
    expect(json.status).toBe(200);
    expect(await json.json()).toMatchObject({ ok: false, twoFactorRequired: true });
    expect(setCookies(json).has("sid")).toBe(false);
    expect(setCookies(json).has("2fa")).toBe(true);
  });

  it("passkeys only: the first passkey shows 10 recovery codes once; a code or the passkey is the second factor; the last passkey takes the codes", async () => {
    const staff = await signedInAs(ctx.db, "moderator");
    const options = await (await post("/api/passkeys/options", { purpose: "register" }, staff.cookie)).json();
    // Passkeys belong to the site's configured address, not the address a request came in on.
    const site = new URL(await publicSiteUrl());
    expect(options.rp.id).toBe(site.hostname);
    const key = softwarePasskey({ id: options.rp.id, origin: site.origin }, staff.id);
    const added = await post(
      "/admin/account",
      { intent: "passkey-add", name: "Phone", credential: JSON.stringify(key.register(options.challenge)) },
      staff.cookie,
    );
    expect(added.status).toBe(200);
    const html = await added.text();
    expect(html).toContain("Passkey &quot;Phone&quot; added.");
    const codes = html.match(/data-testid="recovery-codes"[^>]*>(.*?)<\/ul>/)?.[1]?.match(/[a-z2-9]{5}-[a-z2-9]{5}/g) ?? [];
    expect(codes).toHaveLength(10);
    const page = await (await get("/admin/account", staff.cookie)).text();
    expect(page).toContain("10 of 10 recovery codes left.");
    expect(page).not.toContain('data-testid="recovery-codes"');

    // A recovery code instead of the passkey, once.
    const pending = await passwordStep(staff.email, staff.password);
    expect(await (await get("/auth", pending)).text()).toContain("Use a passkey");
    const recovered = await post("/auth", { intent: "2fa", code: codes[0] ?? "" }, pending);
    expect(recovered.status).toBe(302);
    expect(recovered.headers.get("location")).toBe("/admin");
    expect(setCookies(recovered).has("sid")).toBe(true);
    expect((await post("/auth", { intent: "2fa", code: codes[0] ?? "" }, await passwordStep(staff.email, staff.password))).status).toBe(
      401,
    );

    // The passkey itself as the second factor.
    const again = await passwordStep(staff.email, staff.password);
    const assertion = await (await post("/api/passkeys/options", { purpose: "second-factor" }, again)).json();
    const signedIn = await post("/auth", { intent: "2fa-passkey", credential: JSON.stringify(key.assert(assertion.challenge)) }, again);
    expect(signedIn.status).toBe(302);
    expect(setCookies(signedIn).has("sid")).toBe(true);

    // Removing the last passkey removes the codes: the password alone signs in again.
    expect((await post("/admin/account", { intent: "passkey-remove", passkeyId: key.id }, staff.cookie)).status).toBe(200);
    expect(await (await get("/admin/account", staff.cookie)).text()).not.toContain("recovery codes left");
    const plain = await post("/auth", {
      intent: "login",
      email: staff.email,
      password: staff.password,
      verificationToken: await easyVerificationToken(ctx.db),
    });
    expect(plain.status).toBe(302);
    expect(setCookies(plain).has("sid")).toBe(true);
  });

  it("'Require two-factor authentication' sends staff without it to /admin/account, for every admin page and form", async () => {
    const admin = await signedInAs(ctx.db, "admin");
    const saved = await post("/admin/settings", { intent: "security", requireTwoFactor: "on" }, admin.cookie);
    expect(saved.status).toBe(302);
    expect(await readSecuritySettings(ctx.db)).toEqual({ requireTwoFactor: true });
    try {
      for (const path of ["/admin", "/admin/blog", "/admin/settings", "/admin/audit"]) {
        const response = await get(path, admin.cookie);
        expect(response.status, path).toBe(302);
        expect(response.headers.get("location"), path).toBe("/admin/account");
      }
      // Client navigations (data requests) are redirected too.
      const data = await get("/admin/blog.data", admin.cookie);
      expect(data.status).toBe(202);
      expect(await data.text()).toContain("/admin/account");
      // Actions as well: turning the rule off without 2FA is not possible.
      const refused = await post("/admin/settings", { intent: "security" }, admin.cookie);
      expect(refused.headers.get("location")).toBe("/admin/account");
      expect(await readSecuritySettings(ctx.db)).toEqual({ requireTwoFactor: true });
      const account = await get("/admin/account", admin.cookie);
      expect(account.status).toBe(200);
      expect(await account.text()).toContain("This site requires two-factor authentication for administrators and moderators.");

      // With 2FA, the admin area opens again; plain users are not concerned (they have no admin area).
      await enroll(admin.cookie);
      expect((await get("/admin/blog", admin.cookie)).status).toBe(200);
      const moderator = await signedInAs(ctx.db, "moderator");
      expect((await get("/admin/blog", moderator.cookie)).headers.get("location")).toBe("/admin/account");
    } finally {
      expect((await post("/admin/settings", { intent: "security" }, admin.cookie)).status).toBe(302);
    }
    expect(await readSecuritySettings(ctx.db)).toEqual({ requireTwoFactor: false });
    const audit = await ctx.db.select().from(auditLog).where(eq(auditLog.action, "settings.security"));
    expect(audit.map((r) => r.actorId)).toEqual([admin.id, admin.id]);
  });
});
