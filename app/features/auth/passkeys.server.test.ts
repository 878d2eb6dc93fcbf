import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { passkeys, webauthnChallenges } from "~/server/db/schema.server";
import { UnauthorizedError } from "~/server/errors.server";
import { describeEachDatabase } from "../../../tests/helpers/databases";
import { makeUser } from "../../../tests/helpers/factories";
import { authenticationOptions, registerPasskey, registrationOptions, verifyPasskeyAssertion, type RelyingParty } from "./passkeys.server";
import { PASSKEY_FAILED } from "./passkey-schema";
import { hasTwoFactor } from "./two-factor.server";

const rp: RelyingParty = { id: "localhost", origin: "http://localhost:3000", name: "Test site" };

/** An answer whose clientDataJSON names the challenge (the signature part is junk: the library refuses it). */
function clientData(challenge: string, type: "webauthn.create" | "webauthn.get") {
  return Buffer.from(JSON.stringify({ type, challenge, origin: rp.origin })).toString("base64url");
}

function registration(challenge: string) {
  return {
    id: "cred",
    rawId: "cred",
    type: "public-key" as const,
    clientExtensionResults: {},
    response: { clientDataJSON: clientData(challenge, "webauthn.create"), attestationObject: "AAAA" },
  };
}

function assertion(challenge: string, id = "cred") {
  return {
    id,
    rawId: id,
    type: "public-key" as const,
    clientExtensionResults: {},
    response: { clientDataJSON: clientData(challenge, "webauthn.get"), authenticatorData: "AAAA", signature: "AAAA" },
  };
}

describeEachDatabase("passkey challenges", (ctx) => {
  it("are stored per purpose and user, single use (even when the answer fails), and expire", async () => {
    const user = await makeUser(ctx.db, { role: "moderator" });
    const other = await makeUser(ctx.db, { role: "moderator" });
    const options = await registrationOptions(ctx.db, user, rp);
    expect(options.rp).toEqual({ id: "localhost", name: "Test site" });
    expect(options.authenticatorSelection?.residentKey).toBe("required");

    // Another user cannot answer it; the purpose must match.
    await expect(ctx.db.transaction((tx) => registerPasskey(tx, other.id, "x", registration(options.challenge), rp))).rejects.toThrow(
      UnauthorizedError,
    );
    await expect(ctx.db.transaction((tx) => verifyPasskeyAssertion(tx, assertion(options.challenge), "sign-in", null, rp))).rejects.toThrow(
      UnauthorizedError,
    );
    // The owner's answer with a bad attestation fails, and uses the challenge up.
    expect(await ctx.db.transaction((tx) => registerPasskey(tx, user.id, "x", registration(options.challenge), rp))).toEqual({
      refused: PASSKEY_FAILED,
    });
    await expect(ctx.db.transaction((tx) => registerPasskey(tx, user.id, "x", registration(options.challenge), rp))).rejects.toThrow(
      UnauthorizedError,
    );

    const signIn = await authenticationOptions(ctx.db, "sign-in", null, rp);
    expect(signIn.userVerification).toBe("required");
    await ctx.db
      .update(webauthnChallenges)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(webauthnChallenges.challenge, signIn.challenge));
    await expect(ctx.db.transaction((tx) => verifyPasskeyAssertion(tx, assertion(signIn.challenge), "sign-in", null, rp))).rejects.toThrow(
      UnauthorizedError,
    );
    expect(await ctx.db.select().from(passkeys)).toEqual([]);
  });

  it("a second-factor challenge lists only the user's passkeys; an unknown or someone else's passkey is refused; a passkey counts as 2FA", async () => {
    const user = await makeUser(ctx.db, { role: "moderator" });
    const other = await makeUser(ctx.db, { role: "moderator" });
    expect(await hasTwoFactor(ctx.db, user.id)).toBe(false);
    await ctx.db.insert(passkeys).values([
      { id: `mine-${user.id}`, userId: user.id, name: "Mine", publicKey: "AQID", deviceType: "singleDevice" },
      { id: `theirs-${other.id}`, userId: other.id, name: "Theirs", publicKey: "AQID", deviceType: "singleDevice" },
    ]);
    expect(await hasTwoFactor(ctx.db, user.id)).toBe(true);
    const options = await authenticationOptions(ctx.db, "second-factor", user.id, rp);
    expect(options.allowCredentials?.map((c) => c.id)).toEqual([`mine-${user.id}`]);
    const refused = await ctx.db.transaction((tx) =>
      verifyPasskeyAssertion(tx, assertion(options.challenge, `theirs-${other.id}`), "second-factor", user.id, rp),
    );
    expect(refused).toBeNull();
    // Used up by that attempt.
    await expect(
      ctx.db.transaction((tx) => verifyPasskeyAssertion(tx, assertion(options.challenge, `mine-${user.id}`), "second-factor", user.id, rp)),
    ).rejects.toThrow(UnauthorizedError);
  });
});
