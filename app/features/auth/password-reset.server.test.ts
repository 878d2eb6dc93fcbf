import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createSession, getSessionUser } from "~/features/auth/session.server";
import { createUser } from "~/features/users/users.server";
import type { Db } from "~/server/db/client.server";
import { mailOutbox, verification } from "~/server/db/schema.server";
import { MailOutbox } from "~/server/mail-outbox.server";
import { hitRateLimit } from "~/server/rate-limit.server";
import { getAppSecret } from "~/server/secret.server";
import { easyAltchaToken } from "../../../tests/helpers/altcha";
import { waitFor } from "../../../tests/helpers/contact";
import { describeEachDatabase } from "../../../tests/helpers/databases";
import { parseMail, type ReceivedMail } from "../../../tests/helpers/smtp";
import { useSmtpServer } from "../../../tests/helpers/smtp-suite";
import { signIn } from "./auth.server";
import { RESET_LINK_INVALID } from "./auth-schema";
import { passwordResetMail, requestPasswordReset, updatePasswordWithToken } from "./password-reset.server";

/** Signed with the app's secret like the real challenge, only easier: the server's check is the real one. */
async function humanToken(db: Db): Promise<string> {
  return easyAltchaToken(await getAppSecret(db));
}

let ipCounter = 0;
/** The reset link's form sent with the replacement password and a solved verification. */
async function resetTo(db: Db, token: string) {
  const verificationToken = await humanToken(db);
  return updatePasswordWithToken(
    db,
    { token, password: "replacement phrase 456", confirmPassword: "replacement phrase 456", verificationToken },
    requestFrom(),
  );
}

function requestFrom(ip = `10.0.0.${++ipCounter}`) {
  return new Request("http://localhost/auth", { method: "POST", headers: { "x-app-client-ip": ip } });
}

async function waitForMail(received: ReceivedMail[], to: string): Promise<string> {
  const found = await waitFor(() => received.find((m) => m.to.includes(to)), 5_000, `mail to ${to}`);
  const { text } = parseMail(found);
  const token = /#type=recovery&token=([\w%-]+)/.exec(text)?.[1];
  if (!token) throw new Error(`no link in ${text}`);
  return decodeURIComponent(token);
}

describe("password reset", () => {
  const smtp = useSmtpServer();

  describeEachDatabase("password reset", (ctx) => {
    let n = 0;
    // The email is in the outbox: the server's outbox sends it (here it is drained by hand).
    const sendQueuedEmails = () => new MailOutbox({ db: () => ctx.db }).drain();
    const mailTo = async (email: string) => {
      await sendQueuedEmails();
      return waitForMail(smtp.received, email);
    };
    const newAccount = async () => {
      const email = `reset-${++n}-${Date.now()}@test.example`;
      const created = await createUser(ctx.db, { email, password: "original phrase 123" });
      return { ...created, email };
    };

    it("queues the email in the outbox holding only the user id; an outbox started later (after a restart) sends it", async () => {
      const account = await newAccount();
      await requestPasswordReset(ctx.db, { email: account.email, verificationToken: await humanToken(ctx.db) }, requestFrom());
      const queued = await ctx.db
        .select({ payload: mailOutbox.payload, state: mailOutbox.state, recipient: mailOutbox.recipient })
        .from(mailOutbox)
        .where(eq(mailOutbox.kind, passwordResetMail.kind));
      const mine = queued.filter((mail) => JSON.stringify(mail.payload).includes(account.id));
      expect(mine).toEqual([{ payload: { userId: account.id }, state: "pending", recipient: account.email }]);
      expect(smtp.received.some((m) => m.to.includes(account.email))).toBe(false);
      const token = await mailTo(account.email);
      expect(JSON.stringify(await ctx.db.select().from(mailOutbox))).not.toContain(token);
    });

    it("emails a single-use link, stores only a hash, ends every session and changes the password", async () => {
      const account = await newAccount();
      const cookie = (await createSession(ctx.db, account.id, requestFrom())).split(";")[0] ?? "";
      await requestPasswordReset(
        ctx.db,
        { email: account.email.toUpperCase(), verificationToken: await humanToken(ctx.db) },
        requestFrom(),
      );
      const token = await mailTo(account.email);

      const stored = await ctx.db
        .select({ identifier: verification.identifier, value: verification.value, expiresAt: verification.expiresAt })
        .from(verification)
        .where(eq(verification.value, account.id));
      expect(stored).toHaveLength(1);
      expect(stored[0]?.identifier).not.toContain(token);
      const ttl = (stored[0]?.expiresAt.getTime() ?? 0) - Date.now();
      expect(ttl).toBeGreaterThan(59 * 60_000);
      expect(ttl).toBeLessThanOrEqual(60 * 60_000);

      // A weak password is refused without using up the link.
      await expect(
        updatePasswordWithToken(
          ctx.db,
          { token, password: "short", confirmPassword: "short", verificationToken: await humanToken(ctx.db) },
          requestFrom(),
        ),
      ).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/at least/) });

      await resetTo(ctx.db, token);
      expect(await getSessionUser(new Request("http://localhost/", { headers: { cookie } }))).toBeNull();
      await expect(
        signIn(
          ctx.db,
          { email: account.email, password: "original phrase 123", verificationToken: await humanToken(ctx.db) },
          requestFrom(),
        ),
      ).rejects.toMatchObject({ status: 401 });
      await signIn(
        ctx.db,
        { email: account.email, password: "replacement phrase 456", verificationToken: await humanToken(ctx.db) },
        requestFrom(),
      );

      // Single use.
      await expect(
        updatePasswordWithToken(
          ctx.db,
          { token, password: "third phrase 7890", confirmPassword: "third phrase 7890", verificationToken: await humanToken(ctx.db) },
          requestFrom(),
        ),
      ).rejects.toMatchObject({ status: 400, message: RESET_LINK_INVALID });
    });

    it("refuses an expired link, a mismatch and a missing verification token", async () => {
      const account = await newAccount();
      await requestPasswordReset(ctx.db, { email: account.email, verificationToken: await humanToken(ctx.db) }, requestFrom());
      const token = await mailTo(account.email);
      await expect(
        updatePasswordWithToken(
          ctx.db,
          { token, password: "replacement phrase 456", confirmPassword: "other phrase 456", verificationToken: await humanToken(ctx.db) },
          requestFrom(),
        ),
      ).rejects.toMatchObject({ status: 400, message: "Passwords don't match" });
      await expect(
        updatePasswordWithToken(
          ctx.db,
          { token, password: "replacement phrase 456", confirmPassword: "replacement phrase 456" },
          requestFrom(),
        ),
      ).rejects.toMatchObject({ status: 403 });
      await ctx.db
        .update(verification)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(verification.value, account.id));
      await expect(resetTo(ctx.db, token)).rejects.toMatchObject({ status: 400, message: RESET_LINK_INVALID });
    });

    it("answers an unknown address like a known one, sends nothing, and rate-limits per address", async () => {
      const unknown = `nobody-${Date.now()}@test.example`;
      const before = smtp.received.length;
      for (let i = 0; i < 3; i++) {
        await expect(
          requestPasswordReset(ctx.db, { email: unknown, verificationToken: await humanToken(ctx.db) }, requestFrom()),
        ).resolves.toBeUndefined();
      }
      await expect(
        requestPasswordReset(ctx.db, { email: unknown, verificationToken: await humanToken(ctx.db) }, requestFrom()),
      ).rejects.toMatchObject({ status: 429 });
      await new Promise((r) => setTimeout(r, 300));
      expect(smtp.received.slice(before).some((m) => m.to.includes(unknown))).toBe(false);
    });

    it("rate-limits requests per IP address", async () => {
      const ip = "192.0.2.77";
      // Nine earlier requests from this address, counted the way requestPasswordReset counts them.
      for (let i = 0; i < 9; i++) await hitRateLimit(ctx.db, { key: `reset:ip:${ip}`, limit: 10, windowSeconds: 900 });
      await requestPasswordReset(
        ctx.db,
        { email: `ip-tenth-${Date.now()}@test.example`, verificationToken: await humanToken(ctx.db) },
        requestFrom(ip),
      );
      await expect(
        requestPasswordReset(
          ctx.db,
          { email: `ip-last-${Date.now()}@test.example`, verificationToken: await humanToken(ctx.db) },
          requestFrom(ip),
        ),
      ).rejects.toMatchObject({ status: 429 });
    });
  });
});
