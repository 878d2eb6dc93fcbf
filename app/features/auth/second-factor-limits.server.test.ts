import { generate } from "otplib";
import { expect, it } from "vitest";
import { confirmTotpSetup, getOwnTwoFactor, startTotpSetup } from "~/features/account/two-factor-account.server";
import { getSessionUser } from "~/features/auth/session.server";
import { RateLimitError, UnauthorizedError } from "~/server/errors.server";
import { getAppSecret } from "~/server/secret.server";
import { easyAltchaToken } from "../../../tests/helpers/altcha";
import { describeEachDatabase } from "../../../tests/helpers/databases";
import { signedInAs } from "../../../tests/helpers/factories";
import { completeTwoFactorSignIn, signIn } from "./auth.server";

const requestFrom = (ip: string, cookie = "") =>
  new Request("http://localhost/auth", { method: "POST", headers: { "x-app-client-ip": ip, cookie } });

describeEachDatabase("second sign-in step limits", (ctx) => {
  it("wrong codes from one client lock that client only: the owner from another client still signs in", async () => {
    const me = await signedInAs(ctx.db, "admin");
    const actor = await getSessionUser(new Request("http://localhost/admin/account", { headers: { cookie: me.cookie } }), ctx.db);
    if (!actor) throw new Error("not signed in");
    await startTotpSetup(ctx.db, actor);
    const secret = (await getOwnTwoFactor(ctx.db, actor)).pending?.secret ?? "";
    const recovery = await confirmTotpSetup(ctx.db, actor, { code: await generate({ secret }) });
    const passwordStep = async (ip: string) => {
      const verificationToken = await easyAltchaToken(await getAppSecret(ctx.db));
      const step = await signIn(ctx.db, { email: me.email, password: me.password, verificationToken }, requestFrom(ip));
      expect(step.twoFactor).toBe(true);
      return step.setCookie.split(";")[0] ?? "";
    };

    const attacker = await passwordStep("203.0.113.7");
    const outcomes: string[] = [];
    for (let i = 0; i < 6; i++) {
      const error = await completeTwoFactorSignIn(ctx.db, { code: "000000" }, requestFrom("203.0.113.7", attacker)).catch(
        (e: unknown) => e,
      );
      outcomes.push(error instanceof RateLimitError ? "429" : error instanceof UnauthorizedError ? "401" : String(error));
    }
    expect(outcomes).toEqual(["401", "401", "401", "401", "401", "429"]);

    const owner = await passwordStep("198.51.100.20");
    const signedIn = await completeTwoFactorSignIn(ctx.db, { code: recovery[0] }, requestFrom("198.51.100.20", owner));
    expect(signedIn.userId).toBe(me.id);
  });
});
