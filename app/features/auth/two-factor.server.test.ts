import { eq } from "drizzle-orm";
import { generate } from "otplib";
import { describe, expect, it } from "vitest";
import { auditLog, recoveryCodes, twoFactor } from "~/server/db/schema.server";
import { getSessionUser, type SessionUser } from "~/features/auth/session.server";
import {
  cancelTotpSetup,
  confirmTotpSetup,
  disableTwoFactor,
  getOwnTwoFactor,
  regenerateRecoveryCodes,
  startTotpSetup,
} from "~/features/account/two-factor-account.server";
import { addPasskey, listOwnPasskeys, removePasskey, startPasskeyRegistration } from "~/features/account/passkeys-account.server";
import { resetTwoFactor } from "./account-recovery.server";
import type { Db } from "~/server/db/client.server";
import { openWithAppSecret, sealWithAppSecret } from "~/server/secret.server";
import { describeEachDatabase } from "../../../tests/helpers/databases";
import { signedInAs } from "../../../tests/helpers/factories";
import { softwarePasskey, type SoftwarePasskey } from "../../../tests/helpers/software-passkey";
import { relyingParty } from "./passkeys.server";
import { generateRecoveryCodes, hashCode, verifySecondFactor, verifyTotp } from "./two-factor.server";
import { looksLikeTotp, normalizeCode } from "./two-factor-schema";

const PERIOD_MS = 30_000;

describe("codes", () => {
  it("recovery codes: 10, distinct, typed loosely, hashed the same however typed", () => {
    const codes = generateRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    const [first = ""] = codes;
    expect(hashCode(first)).toBe(hashCode(` ${first.toUpperCase().replace("-", " ")} `));
    expect(normalizeCode("123 456")).toBe("123456");
    expect(looksLikeTotp("123-456")).toBe(true);
    expect(looksLikeTotp(first)).toBe(false);
  });

  it("a TOTP code is valid for its step (and one either side), never for a step already used", async () => {
    const secret = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";
    const now = Date.now();
    const code = await generate({ secret, epoch: Math.floor(now / 1000) });
    const step = await verifyTotp(secret, code, null);
    expect([Math.floor(now / PERIOD_MS), Math.floor(now / PERIOD_MS) + 1]).toContain(step);
    expect(await verifyTotp(secret, code, step)).toBeNull();
    const stale = await generate({ secret, epoch: Math.floor((now - 5 * PERIOD_MS) / 1000) });
    expect(await verifyTotp(secret, stale, null)).toBeNull();
    const previous = await generate({ secret, epoch: Math.floor((now - PERIOD_MS) / 1000) });
    expect(await verifyTotp(secret, previous, null)).not.toBeNull();
    expect(await verifyTotp(secret, "12345", null)).toBeNull();
    expect(await verifyTotp(secret, "abcdef", null)).toBeNull();
    // The clock went back an hour since the last sign-in: refused, not an error.
    expect(await verifyTotp(secret, code, Math.floor(now / PERIOD_MS) + 120)).toBeNull();
  });
});

async function actorOf(db: Db, cookie: string): Promise<SessionUser> {
  const found = await getSessionUser(new Request("http://localhost/admin/account", { headers: { cookie } }), db);
  if (!found) throw new Error("not signed in");
  return found;
}

/** Sets up 2FA for a fresh staff member the way the account page does; returns the secret and codes. */
async function enrolled(db: Db) {
  const me = await signedInAs(db, "moderator");
  const actor = await actorOf(db, me.cookie);
  await startTotpSetup(db, actor);
  const pending = (await getOwnTwoFactor(db, actor)).pending;
  if (!pending) throw new Error("no pending setup");
  const first = await generate({ secret: pending.secret });
  const codes = await confirmTotpSetup(db, actor, { code: first });
  return { me, actor, secret: pending.secret, codes, first };
}

describeEachDatabase("two-factor authentication of one's own account", (ctx) => {
  it("the secret is stored sealed with the app secret, never in clear", async () => {
    const sealed = await sealWithAppSecret(ctx.db, "totp", "SECRETSECRET");
    expect(sealed).not.toContain("SECRETSECRET");
    expect(await openWithAppSecret(ctx.db, "totp", sealed)).toBe("SECRETSECRET");
    await expect(openWithAppSecret(ctx.db, "other purpose", sealed)).rejects.toThrow();
    const { me, secret } = await enrolled(ctx.db);
    const [row] = await ctx.db.select().from(twoFactor).where(eq(twoFactor.userId, me.id));
    expect(row?.secretEncrypted).not.toContain(secret);
    expect(row?.enabledAt).toBeInstanceOf(Date);
  });

  it("setup: a QR code and key, a wrong first code refused, the right one turns it on with 10 recovery codes; audited", async () => {
    const me = await signedInAs(ctx.db, "admin");
    const actor = await actorOf(ctx.db, me.cookie);
    expect(await getOwnTwoFactor(ctx.db, actor)).toEqual({ enabled: false, pending: null, secondFactor: false, recoveryCodesLeft: 0 });
    await startTotpSetup(ctx.db, actor);
    const pending = (await getOwnTwoFactor(ctx.db, actor)).pending;
    expect(pending?.qrDataUrl).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(pending?.uri).toMatch(/^otpauth:\/\/totp\/.*issuer=Portfolio/);
    await expect(confirmTotpSetup(ctx.db, actor, { code: "000000" })).rejects.toMatchObject({ status: 400 });
    await expect(confirmTotpSetup(ctx.db, actor, { code: "12" })).rejects.toMatchObject({ status: 400 });
    const codes = await confirmTotpSetup(ctx.db, actor, { code: await generate({ secret: pending?.secret ?? "" }) });
    expect(codes).toHaveLength(10);
    expect(await getOwnTwoFactor(ctx.db, actor)).toMatchObject({ enabled: true, pending: null, secondFactor: true, recoveryCodesLeft: 10 });
    await expect(startTotpSetup(ctx.db, actor)).rejects.toMatchObject({ status: 409 });
    const audit = await ctx.db.select().from(auditLog).where(eq(auditLog.actorId, me.id));
    expect(audit.map((r) => r.action)).toEqual(["account.2fa.enable"]);
  });

  it("a recovery code works once; an app code not twice", async () => {
    const { me, secret, codes, first } = await enrolled(ctx.db);
    const [code = ""] = codes;
    expect(await verifySecondFactor(ctx.db, me.id, code)).toBe("recovery code");
    expect(await verifySecondFactor(ctx.db, me.id, code)).toBeNull();
    expect(await verifySecondFactor(ctx.db, me.id, "aaaaa-bbbbb")).toBeNull();
    // The setup used this step's code: the same code is refused; the next step's is accepted.
    const [row] = await ctx.db.select({ step: twoFactor.lastUsedStep }).from(twoFactor).where(eq(twoFactor.userId, me.id));
    const next = await generate({ secret, epoch: ((row?.step ?? 0) + 1) * 30 });
    expect(await verifySecondFactor(ctx.db, me.id, first)).toBeNull();
    expect(await verifySecondFactor(ctx.db, me.id, next)).toBe("authenticator app");
    expect(await verifySecondFactor(ctx.db, me.id, next)).toBeNull();
  });

  it("turning it off needs the password or a code; new recovery codes replace the old ones", async () => {
    const { me, actor, codes } = await enrolled(ctx.db);
    await expect(disableTwoFactor(ctx.db, actor, { credential: "not my password" })).rejects.toMatchObject({
      status: 400,
      fieldErrors: { credential: ["That is neither your current password nor a valid code."] },
    });
    const fresh = await regenerateRecoveryCodes(ctx.db, actor, { credential: me.password });
    expect(fresh).toHaveLength(10);
    // An old code is no longer a credential; a new one is.
    await expect(disableTwoFactor(ctx.db, actor, { credential: codes[0] })).rejects.toMatchObject({ status: 400 });
    await disableTwoFactor(ctx.db, actor, { credential: fresh[0] });
    expect(await getOwnTwoFactor(ctx.db, actor)).toEqual({ enabled: false, pending: null, secondFactor: false, recoveryCodesLeft: 0 });
    const audit = await ctx.db.select().from(auditLog).where(eq(auditLog.actorId, me.id)).orderBy(auditLog.id);
    expect(audit.map((r) => r.action)).toEqual(["account.2fa.enable", "account.2fa.recovery-codes", "account.2fa.disable"]);
  });

  it("cancelling a setup removes the pending key; the CLI reset removes an enabled one (audited)", async () => {
    const me = await signedInAs(ctx.db, "moderator");
    const actor = await actorOf(ctx.db, me.cookie);
    await startTotpSetup(ctx.db, actor);
    await cancelTotpSetup(ctx.db, actor);
    expect((await getOwnTwoFactor(ctx.db, actor)).pending).toBeNull();
    const { me: other, actor: otherActor } = await enrolled(ctx.db);
    expect(await resetTwoFactor(ctx.db, other.email.toUpperCase())).toEqual({ email: other.email, removed: true });
    expect((await getOwnTwoFactor(ctx.db, otherActor)).enabled).toBe(false);
    expect(await resetTwoFactor(ctx.db, other.email)).toEqual({ email: other.email, removed: false });
    await expect(resetTwoFactor(ctx.db, "nobody@test.example")).rejects.toMatchObject({ status: 404 });
    const [row] = await ctx.db.select().from(auditLog).where(eq(auditLog.action, "user.2fa.reset"));
    expect(row).toMatchObject({ actorId: null, targetId: other.id });
  });

  it("only staff have an account page: a plain user is refused", async () => {
    const plain = await signedInAs(ctx.db, "user");
    await expect(startTotpSetup(ctx.db, await actorOf(ctx.db, plain.cookie))).rejects.toMatchObject({ status: 403 });
    await expect(startTotpSetup(ctx.db, null)).rejects.toMatchObject({ status: 401 });
  });
});

/** Adds a passkey the way /admin/account does (options, then the authenticator's answer); returns what addPasskey returns. */
async function addSoftwarePasskey(db: Db, actor: SessionUser, key: SoftwarePasskey, name: string) {
  const options = await startPasskeyRegistration(db, actor);
  return addPasskey(db, actor, { name, credential: JSON.stringify(key.register(options.challenge)) });
}

async function codesStored(db: Db, userId: string): Promise<number> {
  return (await db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, userId))).length;
}

describeEachDatabase("recovery codes of an account with passkeys only", (ctx) => {
  it("the first passkey brings 10 codes (shown once); they sign in, are renewed, outlive the app, and go with the last passkey", async () => {
    const me = await signedInAs(ctx.db, "moderator");
    const actor = await actorOf(ctx.db, me.cookie);
    const rp = await relyingParty();
    const phone = softwarePasskey(rp, me.id);
    const laptop = softwarePasskey(rp, me.id);

    const first = await addSoftwarePasskey(ctx.db, actor, phone, "Phone");
    expect(first.recoveryCodes).toHaveLength(10);
    expect(new Set(first.recoveryCodes).size).toBe(10);
    expect(await getOwnTwoFactor(ctx.db, actor)).toEqual({ enabled: false, pending: null, secondFactor: true, recoveryCodesLeft: 10 });
    // A second passkey leaves the codes the user already keeps alone.
    expect(await addSoftwarePasskey(ctx.db, actor, laptop, "Laptop")).toEqual({ recoveryCodes: null });
    const [code = "", other = ""] = first.recoveryCodes ?? [];
    expect(await verifySecondFactor(ctx.db, me.id, code)).toBe("recovery code");
    expect(await verifySecondFactor(ctx.db, me.id, code)).toBeNull();
    expect((await getOwnTwoFactor(ctx.db, actor)).recoveryCodesLeft).toBe(9);

    // New codes without an authenticator app: the old ones stop working.
    const fresh = await regenerateRecoveryCodes(ctx.db, actor, { credential: other });
    expect(fresh).toHaveLength(10);
    expect(await verifySecondFactor(ctx.db, me.id, first.recoveryCodes?.[2] ?? "")).toBeNull();

    // Cancelling an app setup, or turning the app off, keeps the passkeys' codes.
    await startTotpSetup(ctx.db, actor);
    expect((await getOwnTwoFactor(ctx.db, actor)).recoveryCodesLeft).toBe(10);
    await cancelTotpSetup(ctx.db, actor);
    expect(await getOwnTwoFactor(ctx.db, actor)).toEqual({ enabled: false, pending: null, secondFactor: true, recoveryCodesLeft: 10 });
    await startTotpSetup(ctx.db, actor);
    const pending = (await getOwnTwoFactor(ctx.db, actor)).pending;
    const withApp = await confirmTotpSetup(ctx.db, actor, { code: await generate({ secret: pending?.secret ?? "" }) });
    await disableTwoFactor(ctx.db, actor, { credential: me.password });
    expect(await getOwnTwoFactor(ctx.db, actor)).toEqual({ enabled: false, pending: null, secondFactor: true, recoveryCodesLeft: 10 });
    expect(await verifySecondFactor(ctx.db, me.id, withApp[0] ?? "")).toBe("recovery code");

    // The last passkey (the app off) takes the codes with it.
    const [phoneRow, laptopRow] = await listOwnPasskeys(ctx.db, actor);
    await removePasskey(ctx.db, actor, { passkeyId: phoneRow?.id });
    expect(await codesStored(ctx.db, me.id)).toBe(10);
    await removePasskey(ctx.db, actor, { passkeyId: laptopRow?.id });
    expect(await codesStored(ctx.db, me.id)).toBe(0);
    expect(await getOwnTwoFactor(ctx.db, actor)).toEqual({ enabled: false, pending: null, secondFactor: false, recoveryCodesLeft: 0 });
    expect(await verifySecondFactor(ctx.db, me.id, withApp[1] ?? "")).toBeNull();
    await expect(regenerateRecoveryCodes(ctx.db, actor, { credential: me.password })).rejects.toMatchObject({ status: 400 });

    const audit = await ctx.db.select().from(auditLog).where(eq(auditLog.actorId, me.id)).orderBy(auditLog.id);
    expect(audit.map((r) => r.summary)).toEqual([
      'passkey "Phone" added; 10 recovery codes issued',
      'passkey "Laptop" added',
      "10 new recovery codes issued",
      "authenticator app added; 10 recovery codes issued",
      "authenticator app removed; recovery codes kept for the passkeys",
      'passkey "Phone" removed',
      'passkey "Laptop" removed with the recovery codes',
    ]);
  });

  it("the CLI reset removes the passkeys and their codes", async () => {
    const me = await signedInAs(ctx.db, "admin");
    const actor = await actorOf(ctx.db, me.cookie);
    await addSoftwarePasskey(ctx.db, actor, softwarePasskey(await relyingParty(), me.id), "Key");
    expect(await codesStored(ctx.db, me.id)).toBe(10);
    expect(await resetTwoFactor(ctx.db, me.email)).toEqual({ email: me.email, removed: true });
    expect(await codesStored(ctx.db, me.id)).toBe(0);
    expect(await getOwnTwoFactor(ctx.db, actor)).toEqual({ enabled: false, pending: null, secondFactor: false, recoveryCodesLeft: 0 });
  });
});
