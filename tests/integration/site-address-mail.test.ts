import { afterAll, beforeAll, expect, it } from "vitest";
import { MAIL_SITE_ADDRESS_MISSING } from "~/features/mail/mail-settings-schema";
import { resetEnvForTests } from "~/server/env.server";
import { MailOutbox } from "~/server/mail-outbox.server";
import { easyVerificationToken, waitFor } from "../helpers/contact";
import { describeEachDatabase } from "../helpers/databases";
import { makeUser, signedInAs } from "../helpers/factories";
import { mailsTo, useSmtpServer } from "../helpers/smtp-suite";
import { saveSiteAddress, startTestServer, type TestServer } from "../helpers/test-server";

/**
 * Emails are built from the configured site address (PUBLIC_URL, else the Site address setting), never
 * from a request's Host. With neither set, every admin page says so — and where links would point —
 * before any email goes out; once the address is saved, the notice is gone and emails link to it.
 */
const saved = { ...process.env };
beforeAll(() => {
  delete process.env.PUBLIC_URL;
  process.env.LOG_LEVEL = "silent";
  resetEnvForTests();
});
afterAll(() => {
  process.env = saved;
  resetEnvForTests();
});

describeEachDatabase("the site address in emails", (ctx) => {
  const mailbox = useSmtpServer();
  let server: TestServer;
  let runner: MailOutbox;
  beforeAll(async () => {
    server = await startTestServer();
    runner = new MailOutbox({ db: () => ctx.db, pollMs: 100 });
    await runner.start();
  });
  afterAll(async () => {
    await runner.stop();
    await server.close();
  });

  it("tells the admin to set it while none is configured, and emails then link to it, never to localhost", async () => {
    const admin = await signedInAs(ctx.db, "admin");
    const moderator = await signedInAs(ctx.db, "moderator");
    const page = async (cookie: string, path = "/admin") => (await server.fetch(path, { headers: { cookie } })).text();

    const before = await page(admin.cookie);
    expect(before).toContain('data-testid="site-address-banner"');
    expect(before).toContain(MAIL_SITE_ADDRESS_MISSING);
    expect(before).toMatch(/href="\/admin\/settings"[^>]*>Set the site address</);
    // Staff who cannot change the settings are told too, without a link they could not follow.
    const told = await page(moderator.cookie);
    expect(told).toContain(MAIL_SITE_ADDRESS_MISSING);
    expect(told).not.toContain("Set the site address</a>");

    const save = await saveSiteAddress(server, ctx.db, admin.cookie, "https://blog.example/");
    expect(save.status).toBeLessThan(400);
    for (const path of ["/admin", "/admin/email", "/admin/settings"])
      expect(await page(admin.cookie, path), path).not.toContain('data-testid="site-address-banner"');

    // A password reset: its link starts with the saved address.
    const member = await makeUser(ctx.db);
    const reset = await server.fetch("/auth", {
      method: "POST",
      headers: { origin: server.url },
      body: new URLSearchParams({ intent: "forgot", email: member.email, verificationToken: await easyVerificationToken(ctx.db) }),
    });
    expect(reset.status).toBe(302);
    const mail = await waitFor(() => mailsTo(mailbox, member.email)[0], 20_000, "the reset email");
    const text = mail.raw.replace(/=\r?\n/g, "").replace(/=3D/g, "=");
    expect(text).toContain("https://blog.example/auth#type=recovery&token=");
    expect(text).not.toMatch(/https?:\/\/(?:localhost|127\.0\.0\.1)/);
  });
});
