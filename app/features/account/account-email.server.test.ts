import { eq } from "drizzle-orm";
import { generate } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getSessionUser, type SessionUser } from "~/features/auth/session.server";
import { signIn } from "~/features/auth/auth.server";
import type { Db } from "~/server/db/client.server";
import { auditLog, mailOutbox, user, verification } from "~/server/db/schema.server";
import { resetEnvForTests } from "~/server/env.server";
import { MailOutbox } from "~/server/mail-outbox.server";
import { getAppSecret } from "~/server/secret.server";
import { easyAltchaToken } from "../../../tests/helpers/altcha";
import { waitFor } from "../../../tests/helpers/contact";
import { describeEachDatabase } from "../../../tests/helpers/databases";
import { makeUser, signedInAs, TEST_PASSWORD, unique } from "../../../tests/helpers/factories";
import { parseMail } from "../../../tests/helpers/smtp";
import { useSmtpServer } from "../../../tests/helpers/smtp-suite";
import {
  confirmEmailChange,
  EMAIL_CHANGE_LINK_INVALID,
  readPendingEmailChange,
  requestEmailChange,
  SAME_EMAIL,
} from "./account-email.server";
import { confirmTotpSetup, getOwnTwoFactor, startTotpSetup } from "./two-factor-account.server";

let ipCounter = 0;
const requestFrom = () => new Request("http://localhost/", { method: "POST", headers: { "x-app-client-ip": `10.9.0.${++ipCounter}` } });

/** The session user of a cookie, as the account page's action gets it. */
const actorOf = (db: Db, cookie: string): Promise<SessionUser> =>
  getSessionUser(new Request("http://localhost/admin/account", { headers: { cookie } }), db).then(
    (found) => found ?? Promise.reject(new Error("no session")),
  );

/** Whether the address and password sign in (the real sign-in, with a solved verification). */
async function signsIn(db: Db, email: string, password = TEST_PASSWORD): Promise<boolean> {
  const verificationToken = await easyAltchaToken(await getAppSecret(db));
  return signIn(db, { email, password, verificationToken }, requestFrom()).then(
    () => true,
    (error: unknown) => {
      if ((error as { status?: number }).status === 401) return false;
      throw error;
    },
  );
}

async function emailOf(db: Db, id: string) {
  const [row] = await db.select({ email: user.email }).from(user).where(eq(user.id, id));
  return row?.email;
}

describe("account email change, mail working", () => {
  const smtp = useSmtpServer();

  describeEachDatabase("account email change with a confirmation link", (ctx) => {
    const sendQueuedEmails = () => new MailOutbox({ db: () => ctx.db }).drain();
    const linkTo = async (email: string): Promise<string> => {
      await sendQueuedEmails();
      const mail = await waitFor(() => smtp.received.find((m) => m.to.includes(email)), 5_000, `mail to ${email}`);
      const token = /\/account\/confirm-email\?token=([\w%-]+)/.exec(parseMail(mail).text)?.[1];
      if (!token) throw new Error("no confirmation link");
      return decodeURIComponent(token);
    };

    it("sends a link to the new address; the change applies when it is opened, once; the old address gets a notice", async () => {
      const me = await signedInAs(ctx.db, "admin");
      const actor = await actorOf(ctx.db, me.cookie);
      const next = `next-${unique()}@test.example`;
      await expect(
        requestEmailChange(ctx.db, actor, { newEmail: ` ${next.toUpperCase()} `, currentPassword: TEST_PASSWORD }),
      ).resolves.toEqual({
        applied: false,
        sentTo: next,
      });
      // Nothing changes until the link is opened; the outbox holds no token.
      expect(await emailOf(ctx.db, me.id)).toBe(me.email);
      const token = await linkTo(next);
      expect(JSON.stringify(await ctx.db.select().from(mailOutbox))).not.toContain(token);
      expect(JSON.stringify(await ctx.db.select().from(verification))).not.toContain(token);
      expect(await readPendingEmailChange(ctx.db, actor)).toMatchObject({ email: next });

      await expect(confirmEmailChange(ctx.db, { token }, requestFrom())).resolves.toEqual({ email: next });
      expect(await emailOf(ctx.db, me.id)).toBe(next);
      expect(await signsIn(ctx.db, me.email)).toBe(false);
      expect(await signsIn(ctx.db, next)).toBe(true);
      expect(await readPendingEmailChange(ctx.db, actor)).toBeNull();
      // Single use.
      await expect(confirmEmailChange(ctx.db, { token }, requestFrom())).rejects.toMatchObject({
        status: 400,
        message: EMAIL_CHANGE_LINK_INVALID,
      });

      await sendQueuedEmails();
      const notice = await waitFor(() => smtp.received.find((m) => m.to.includes(me.email)), 5_000, "notice");
      expect(parseMail(notice).text).toContain(`changed to ${next}`);
      const audit = await ctx.db
        .select({ action: auditLog.action, summary: auditLog.summary })
        .from(auditLog)
        .where(eq(auditLog.targetId, me.id))
        .orderBy(auditLog.id);
      expect(audit.filter((row) => row.action.startsWith("account.email"))).toEqual([
        { action: "account.email.request", summary: `confirmation link sent to ${next}` },
        { action: "account.email.change", summary: `${me.email} → ${next}` },
      ]);
    });

    it("refuses a wrong password, a taken or invalid address and the same address with a clear 4xx, changing nothing", async () => {
      const me = await signedInAs(ctx.db, "moderator");
      const other = await makeUser(ctx.db);
      const actor = await actorOf(ctx.db, me.cookie);
      const attempt = (newEmail: string, currentPassword = TEST_PASSWORD) =>
        requestEmailChange(ctx.db, actor, { newEmail, currentPassword });
      await expect(attempt(`x-${unique()}@test.example`, "not my password")).rejects.toMatchObject({
        status: 400,
        fieldErrors: { currentPassword: ["Your current password is not correct."] },
      });
      await expect(attempt(other.email.toUpperCase())).rejects.toMatchObject({
        status: 409,
        message: `A user with email ${other.email} already exists`,
      });
      await expect(attempt("not-an-address")).rejects.toMatchObject({ status: 400, fieldErrors: { newEmail: ["Invalid email address"] } });
      await expect(attempt(me.email)).rejects.toMatchObject({ status: 400, message: SAME_EMAIL });
      expect(await emailOf(ctx.db, me.id)).toBe(me.email);
      expect(await readPendingEmailChange(ctx.db, actor)).toBeNull();
      // Password guesses are limited: 5 per 15 minutes (three counted above; an invalid form is refused before).
      for (let i = 0; i < 2; i++) await expect(attempt(`y-${unique()}@test.example`, "guess")).rejects.toMatchObject({ status: 400 });
      await expect(attempt(`z-${unique()}@test.example`)).rejects.toMatchObject({ status: 429 });
    });

    it("a link whose address was taken meanwhile is refused and kept; a plain user may not use the form", async () => {
      const me = await signedInAs(ctx.db, "admin");
      const actor = await actorOf(ctx.db, me.cookie);
      const next = `raced-${unique()}@test.example`;
      await requestEmailChange(ctx.db, actor, { newEmail: next, currentPassword: TEST_PASSWORD });
      const token = await linkTo(next);
      await makeUser(ctx.db, { email: next });
      await expect(confirmEmailChange(ctx.db, { token }, requestFrom())).rejects.toMatchObject({ status: 409 });
      expect(await emailOf(ctx.db, me.id)).toBe(me.email);
      expect(await readPendingEmailChange(ctx.db, actor)).toMatchObject({ email: next });
      await expect(confirmEmailChange(ctx.db, { token: "x".repeat(43) }, requestFrom())).rejects.toMatchObject({ status: 400 });

      const plain = await signedInAs(ctx.db, "user");
      await expect(
        requestEmailChange(ctx.db, await actorOf(ctx.db, plain.cookie), {
          newEmail: `p-${unique()}@test.example`,
          currentPassword: TEST_PASSWORD,
        }),
      ).rejects.toMatchObject({ status: 403 });
    });
  });
});

describe("account email change, no mail", () => {
  const saved = process.env.SMTP_URL;
  beforeAll(() => {
    delete process.env.SMTP_URL;
    resetEnvForTests();
  });
  afterAll(() => {
    if (saved !== undefined) process.env.SMTP_URL = saved;
    resetEnvForTests();
  });

  describeEachDatabase("account email change without mail", (ctx) => {
    it("applies at once with the password; nothing is queued", async () => {
      const me = await signedInAs(ctx.db, "admin");
      const actor = await actorOf(ctx.db, me.cookie);
      const next = `direct-${unique()}@test.example`;
      await expect(requestEmailChange(ctx.db, actor, { newEmail: next, currentPassword: TEST_PASSWORD })).resolves.toEqual({
        applied: true,
        email: next,
      });
      expect(await emailOf(ctx.db, me.id)).toBe(next);
      expect(await signsIn(ctx.db, me.email)).toBe(false);
      expect(await signsIn(ctx.db, next)).toBe(true);
      expect(await ctx.db.select({ id: mailOutbox.id }).from(mailOutbox).where(eq(mailOutbox.recipient, me.email))).toEqual([]);
      const [audit] = await ctx.db
        .select({ action: auditLog.action, summary: auditLog.summary })
        .from(auditLog)
        .where(eq(auditLog.action, "account.email.change"))
        .orderBy(auditLog.id);
      expect(audit).toBeDefined();
    });

    it("with two-factor on, also asks for a code of the second factor, and refuses a wrong one", async () => {
      const me = await signedInAs(ctx.db, "admin");
      const actor = await actorOf(ctx.db, me.cookie);
      await startTotpSetup(ctx.db, actor);
      const secret = (await getOwnTwoFactor(ctx.db, actor)).pending?.secret ?? "";
      const [recovery = ""] = await confirmTotpSetup(ctx.db, actor, { code: await generate({ secret }) });
      const next = `twofa-${unique()}@test.example`;
      const attempt = (code?: string) =>
        requestEmailChange(ctx.db, actor, { newEmail: next, currentPassword: TEST_PASSWORD, ...(code === undefined ? {} : { code }) });
      await expect(attempt()).rejects.toMatchObject({ status: 400, fieldErrors: { code: [expect.any(String)] } });
      await expect(attempt("aaaaa-bbbbb")).rejects.toMatchObject({ status: 400, fieldErrors: { code: [expect.any(String)] } });
      expect(await emailOf(ctx.db, me.id)).toBe(me.email);
      await expect(attempt(recovery)).resolves.toEqual({ applied: true, email: next });
      expect(await emailOf(ctx.db, me.id)).toBe(next);
    });
  });
});
