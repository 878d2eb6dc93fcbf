import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { and, asc, eq, gt, isNull, lt, sql } from "drizzle-orm";
import { publicSiteUrl } from "~/features/settings/site-url.server";
import { getSiteSettings } from "~/features/settings/settings.server";
import { ONE_ROW, type Db } from "~/server/db/client.server";
import { passkeys, webauthnChallenges } from "~/server/db/schema.server";
import { UnauthorizedError, ValidationError } from "~/server/errors.server";
import { logger } from "~/server/logger.server";
import { PASSKEY_FAILED, type PasskeyPurpose } from "./passkey-schema";

// @simplewebauthn/server and its helpers cost ~28 MB resident once imported and only passkey
// ceremonies use them: loaded on the first one, not at start-up.
const webauthn = () => import("@simplewebauthn/server");
const webauthnHelpers = () => import("@simplewebauthn/server/helpers");

/**
 * Passkeys (WebAuthn; docs/decisions/0035-passkeys.md). Challenges live in the database so any instance
 * can check the answer; each is single use and expires after 5 minutes. The relying party is the site's
 * public address (publicSiteUrl): its host name is the RP ID, its origin the only origin accepted.
 */

const CHALLENGE_MINUTES = 5;
const CEREMONY_TIMEOUT_MS = 2 * 60_000;

export interface RelyingParty {
  id: string;
  origin: string;
  name: string;
}

export async function relyingParty(): Promise<RelyingParty> {
  const url = new URL(await publicSiteUrl());
  return { id: url.hostname, origin: url.origin, name: (await getSiteSettings()).siteName };
}

async function storeChallenge(db: Db, challenge: string, purpose: PasskeyPurpose, userId: string | null): Promise<void> {
  await db.delete(webauthnChallenges).where(lt(webauthnChallenges.expiresAt, new Date()));
  await db.insert(webauthnChallenges).values({
    challenge,
    purpose,
    userId,
    expiresAt: new Date(Date.now() + CHALLENGE_MINUTES * 60_000),
  });
}

/**
 * Takes the challenge the browser signed out of the store: true once, for a live challenge issued for this
 * purpose (and this user, when one was named). Taken before the signature is checked, so a failed answer
 * uses it up too.
 */
async function takeChallenge(tx: Db, clientDataJSON: string, purpose: PasskeyPurpose, userId: string | null): Promise<string> {
  const { decodeClientDataJSON } = await webauthnHelpers();
  let challenge: string;
  try {
    challenge = decodeClientDataJSON(clientDataJSON).challenge;
  } catch {
    throw new ValidationError(PASSKEY_FAILED);
  }
  if (typeof challenge !== "string" || challenge.length === 0 || challenge.length > 200) throw new ValidationError(PASSKEY_FAILED);
  const rows = await tx
    .delete(webauthnChallenges)
    .where(
      and(
        eq(webauthnChallenges.challenge, challenge),
        eq(webauthnChallenges.purpose, purpose),
        gt(webauthnChallenges.expiresAt, new Date()),
        userId === null ? isNull(webauthnChallenges.userId) : eq(webauthnChallenges.userId, userId),
      ),
    )
    .returning({ challenge: webauthnChallenges.challenge });
  if (rows.length === 0) throw new UnauthorizedError("This passkey request has expired. Please try again.");
  return challenge;
}

export interface PasskeySummary {
  id: string;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

export async function listPasskeys(db: Db, userId: string): Promise<PasskeySummary[]> {
  return db
    .select({ id: passkeys.id, name: passkeys.name, createdAt: passkeys.createdAt, lastUsedAt: passkeys.lastUsedAt })
    .from(passkeys)
    .where(eq(passkeys.userId, userId))
    .orderBy(asc(passkeys.createdAt));
}

/** Whether the user has a passkey, as a column of the caller's statement. */
export function hasPasskeyOf(userId: string) {
  return sql<boolean>`exists (select 1 from ${passkeys} where ${passkeys.userId} = ${userId})`;
}

export async function hasPasskey(db: Db, userId: string): Promise<boolean> {
  const [row] = await db.select({ on: hasPasskeyOf(userId) }).from(ONE_ROW);
  return row?.on === true;
}

/** Options for navigator.credentials.create(): a discoverable credential, so it can also sign in without a password. */
export async function registrationOptions(
  db: Db,
  user: { id: string; email: string },
  rp: RelyingParty,
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const { generateRegistrationOptions } = await webauthn();
  const existing = await db.select({ id: passkeys.id, transports: passkeys.transports }).from(passkeys).where(eq(passkeys.userId, user.id));
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: user.email,
    userID: new TextEncoder().encode(user.id),
    timeout: CEREMONY_TIMEOUT_MS,
    attestationType: "none",
    excludeCredentials: existing,
    authenticatorSelection: { residentKey: "required", userVerification: "preferred" },
  });
  await storeChallenge(db, options.challenge, "register", user.id);
  return options;
}

/**
 * Checks a new passkey's answer and stores it under the name given. A refused answer is returned, not
 * thrown, so the caller's transaction commits and the challenge stays used up.
 */
export async function registerPasskey(
  tx: Db,
  userId: string,
  name: string,
  response: RegistrationResponseJSON,
  rp: RelyingParty,
): Promise<{ id: string } | { refused: string }> {
  const [{ verifyRegistrationResponse }, { isoBase64URL }] = await Promise.all([webauthn(), webauthnHelpers()]);
  const challenge = await takeChallenge(tx, response.response.clientDataJSON, "register", userId);
  let verified;
  try {
    verified = await verifyRegistrationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: false,
    });
  } catch (error) {
    logger.info({ reason: error instanceof Error ? error.message : "unknown" }, "passkey registration refused");
    return { refused: PASSKEY_FAILED };
  }
  if (!verified.verified) return { refused: PASSKEY_FAILED };
  const { credential, credentialDeviceType, credentialBackedUp } = verified.registrationInfo;
  const inserted = await tx
    .insert(passkeys)
    .values({
      id: credential.id,
      userId,
      name,
      publicKey: isoBase64URL.fromBuffer(credential.publicKey),
      counter: credential.counter,
      transports: credential.transports ?? [],
      deviceType: credentialDeviceType,
      backedUp: credentialBackedUp,
    })
    .onConflictDoNothing()
    .returning({ id: passkeys.id });
  if (inserted.length === 0) return { refused: "This passkey is already registered." };
  return { id: credential.id };
}

/**
 * Options for navigator.credentials.get(). Signing in without a password lists no credentials (the
 * authenticator offers its discoverable ones) and requires user verification; as a second factor only the
 * pending user's passkeys are allowed.
 */
export async function authenticationOptions(
  db: Db,
  purpose: "sign-in" | "second-factor",
  userId: string | null,
  rp: RelyingParty,
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const { generateAuthenticationOptions } = await webauthn();
  const allowCredentials =
    userId === null
      ? []
      : await db.select({ id: passkeys.id, transports: passkeys.transports }).from(passkeys).where(eq(passkeys.userId, userId));
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    timeout: CEREMONY_TIMEOUT_MS,
    allowCredentials,
    userVerification: purpose === "sign-in" ? "required" : "preferred",
  });
  await storeChallenge(db, options.challenge, purpose, userId);
  return options;
}

/**
 * Checks a passkey's signature over a stored challenge; returns whose passkey it is. The signature counter
 * (when the authenticator keeps one) must grow, which the library checks; the new value is stored.
 */
export async function verifyPasskeyAssertion(
  tx: Db,
  response: AuthenticationResponseJSON,
  purpose: "sign-in" | "second-factor",
  userId: string | null,
  rp: RelyingParty,
): Promise<{ userId: string; name: string } | null> {
  const [{ verifyAuthenticationResponse }, { isoBase64URL }] = await Promise.all([webauthn(), webauthnHelpers()]);
  const challenge = await takeChallenge(tx, response.response.clientDataJSON, purpose, userId);
  const [stored] = await tx
    .select({
      id: passkeys.id,
      userId: passkeys.userId,
      name: passkeys.name,
      publicKey: passkeys.publicKey,
      counter: passkeys.counter,
      transports: passkeys.transports,
    })
    .from(passkeys)
    .where(userId === null ? eq(passkeys.id, response.id) : and(eq(passkeys.id, response.id), eq(passkeys.userId, userId)));
  if (!stored) return null;
  let verified;
  try {
    verified = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: {
        id: stored.id,
        publicKey: isoBase64URL.toBuffer(stored.publicKey),
        counter: stored.counter,
        transports: stored.transports,
      },
      requireUserVerification: purpose === "sign-in",
    });
  } catch (error) {
    logger.info({ reason: error instanceof Error ? error.message : "unknown" }, "passkey assertion refused");
    return null;
  }
  if (!verified.verified) return null;
  await tx
    .update(passkeys)
    .set({ counter: verified.authenticationInfo.newCounter, lastUsedAt: new Date() })
    .where(eq(passkeys.id, stored.id));
  return { userId: stored.userId, name: stored.name };
}

/** Removes one of the user's passkeys; returns its name, or null when the user has no such passkey. */
export async function deletePasskey(tx: Db, userId: string, passkeyId: string): Promise<string | null> {
  const [row] = await tx
    .delete(passkeys)
    .where(and(eq(passkeys.userId, userId), eq(passkeys.id, passkeyId)))
    .returning({ name: passkeys.name });
  return row?.name ?? null;
}

/** The operator's account recovery (CLI reset-2fa): every passkey of the user. */
export async function deleteAllPasskeys(tx: Db, userId: string): Promise<number> {
  const rows = await tx.delete(passkeys).where(eq(passkeys.userId, userId)).returning({ id: passkeys.id });
  await tx.delete(webauthnChallenges).where(eq(webauthnChallenges.userId, userId));
  return rows.length;
}
