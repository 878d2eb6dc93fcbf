import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { signIn } from "~/features/auth/auth.server";
import { emailChangedMail } from "~/features/users/users.server";
import { mailOutbox } from "~/server/db/schema.server";
import { getAppSecret } from "~/server/secret.server";
import { easyAltchaToken } from "../tests/helpers/altcha";
import { describeEachDatabase, type DatabaseContext } from "../tests/helpers/databases";
import { runCli } from "./commands";

/** Runs a command against the suite's database and returns what it printed. */
function runner(ctx: DatabaseContext) {
  return async (...argv: string[]) => {
    const lines: string[] = [];
    await runCli(argv, { database: ctx.database, io: { out: (l) => lines.push(l), readStdin: async () => "from stdin pass\n" } });
    return lines.join("\n");
  };
}

// Each suite has its own database, so the tests pass in any order.
describeEachDatabase("cli", (ctx) => {
  const run = runner(ctx);

  it("creates, lists, grants, revokes and sets passwords", async () => {
    expect(await run("create-user", "boss@example.com", "--role", "admin", "--password", "leader pass phrase")).toMatch(
      /Created user boss@example.com \(admin\)/,
    );
    const created = await run("create-user", "mod@example.com");
    expect(created).toMatch(/Password: \S{16,}/);
    await run("grant", "mod@example.com", "moderator");
    expect(await run("list-users")).toMatch(/mod@example.com\tModerator/);
    await run("revoke", "mod@example.com", "moderator");
    expect(await run("list-users")).toMatch(/mod@example.com\tUser/);
    expect(await run("set-password", "mod@example.com", "--password-stdin")).toMatch(/Password updated/);
    // Without 2FA there is nothing to remove (the removal itself is tested with the 2FA functions).
    expect(await run("reset-2fa", "MOD@example.com")).toBe("mod@example.com had no two-factor authentication; nothing to remove.");
  });
});

describeEachDatabase("cli refusals", (ctx) => {
  const run = runner(ctx);

  it("gives clear errors", async () => {
    await run("create-user", "boss@example.com", "--role", "admin", "--password", "leader pass phrase");
    await run("create-user", "mod@example.com");
    await expect(run("create-user", "bad-email")).rejects.toThrow(/Invalid email address/);
    await expect(run("set-password", "nobody@example.com", "--password", "long enough pass")).rejects.toThrow(
      /No user with email nobody@example.com/,
    );
    await expect(run("set-password", "mod@example.com", "--password", "weak")).rejects.toThrow(/at least 10 characters/);
    await expect(run("grant", "mod@example.com", "superuser")).rejects.toThrow(/Unknown role/);
    await expect(run("revoke", "boss@example.com", "admin")).rejects.toThrow(/last administrator/);
    await expect(run("reset-2fa")).rejects.toThrow(/Missing email/);
    await expect(run("reset-2fa", "nobody@example.com")).rejects.toThrow(/No user with email nobody@example.com/);
    await expect(run("frobnicate")).rejects.toThrow(/Unknown command/);
    expect(await run("help")).toContain("  restore <file> [--force]");
  });
});

describeEachDatabase("cli set-email", (ctx) => {
  const run = runner(ctx);

  it("changes a sign-in email: the new address signs in, the old one does not, and it gets a notice", async () => {
    await run("create-user", "old-address@example.com", "--password", "moving pass phrase");
    expect(await run("set-email", "OLD-address@example.com", " New-Address@example.com ")).toBe(
      "Sign-in email changed to new-address@example.com.",
    );
    const request = (ip: string) => new Request("http://localhost/auth", { method: "POST", headers: { "x-app-client-ip": ip } });
    const token = easyAltchaToken(await getAppSecret(ctx.db));
    await expect(
      signIn(
        ctx.db,
        { email: "old-address@example.com", password: "moving pass phrase", verificationToken: await token },
        request("10.44.0.1"),
      ),
    ).rejects.toThrow();
    const signedIn = await signIn(
      ctx.db,
      {
        email: "new-address@example.com",
        password: "moving pass phrase",
        verificationToken: await easyAltchaToken(await getAppSecret(ctx.db)),
      },
      request("10.44.0.2"),
    );
    expect(signedIn.userId).toBeTruthy();
    const [notice] = await ctx.db.select().from(mailOutbox).where(eq(mailOutbox.kind, emailChangedMail.kind));
    expect(notice).toMatchObject({ recipient: "old-address@example.com", payload: { newEmail: "new-address@example.com" } });
    await run("create-user", "taken-address@example.com", "--password", "another pass phrase");
    await expect(run("set-email", "new-address@example.com", "taken-address@example.com")).rejects.toThrow(/already exists/);
    await expect(run("set-email", "new-address@example.com", "not-an-address")).rejects.toThrow(/Invalid email address/);
  });
});
