import type { SessionUser } from "~/features/auth/session.server";
import { passkeyAddSchema, passkeyIdSchema } from "~/features/auth/passkey-schema";
import {
  deletePasskey,
  listPasskeys,
  registerPasskey,
  registrationOptions,
  relyingParty,
  type PasskeySummary,
} from "~/features/auth/passkeys.server";
import { dropRecoveryCodesWithoutSecondFactor } from "~/features/auth/two-factor.server";
import { canEdit } from "~/lib/permissions";
import { recordAudit } from "~/server/audit.server";
import { authorize } from "~/server/authorize.server";
import type { Db } from "~/server/db/client.server";
import { NotFoundError, parseOrThrow, ValidationError } from "~/server/errors.server";
import { enforceRateLimits } from "~/server/rate-limit.server";
import { ACCOUNT_FORBIDDEN } from "./account.server";
import { CODES_ISSUED, issueRecoveryCodes } from "./two-factor-account.server";

/** Passkeys on /admin/account: the signed-in staff member's own, nobody else's (docs/decisions/0035-passkeys.md). */

export async function listOwnPasskeys(db: Db, actor: SessionUser | null): Promise<PasskeySummary[]> {
  authorize(actor, canEdit, ACCOUNT_FORBIDDEN);
  return listPasskeys(db, actor.id);
}

/** 'Add a passkey', first half: the options the browser hands to the authenticator. */
export async function startPasskeyRegistration(db: Db, actor: SessionUser | null) {
  authorize(actor, canEdit, ACCOUNT_FORBIDDEN);
  await enforceRateLimits(db, [{ key: `passkey-register:${actor.id}`, limit: 30, windowSeconds: 15 * 60 }]);
  return registrationOptions(db, actor, await relyingParty());
}

/**
 * 'Add a passkey', second half: the authenticator's answer, checked against the stored challenge, kept under
 * its name. A user without recovery codes gets 10 with it (shown once, like enabling the authenticator app
 * shows them): losing the only passkey device must not lock the account. Returns them, or null.
 */
export async function addPasskey(db: Db, actor: SessionUser | null, raw: unknown): Promise<{ recoveryCodes: string[] | null }> {
  authorize(actor, canEdit, ACCOUNT_FORBIDDEN);
  const { name, credential } = parseOrThrow(passkeyAddSchema, raw);
  const rp = await relyingParty();
  const outcome = await db.transaction(async (tx) => {
    const registered = await registerPasskey(tx, actor.id, name, credential, rp);
    if ("refused" in registered) return registered;
    const recoveryCodes = await issueRecoveryCodes(tx, actor, {
      ifNone: true,
      action: "account.passkey.add",
      target: { type: "passkey", id: registered.id },
      summary: (codes) => (codes ? `passkey "${name}" added; ${CODES_ISSUED}` : `passkey "${name}" added`),
    });
    return { recoveryCodes };
  });
  if ("refused" in outcome) throw new ValidationError(outcome.refused);
  return outcome;
}

/** 'Remove': the last second factor takes the recovery codes with it (see dropRecoveryCodesWithoutSecondFactor). */
export async function removePasskey(db: Db, actor: SessionUser | null, raw: unknown): Promise<string> {
  authorize(actor, canEdit, ACCOUNT_FORBIDDEN);
  const { passkeyId } = parseOrThrow(passkeyIdSchema, raw);
  return db.transaction(async (tx) => {
    const name = await deletePasskey(tx, actor.id, passkeyId);
    if (name === null) throw new NotFoundError("That passkey no longer exists.");
    const { dropped } = await dropRecoveryCodesWithoutSecondFactor(tx, actor.id);
    await recordAudit(tx, {
      actor,
      action: "account.passkey.remove",
      target: { type: "passkey", id: passkeyId },
      summary: dropped > 0 ? `passkey "${name}" removed with the recovery codes` : `passkey "${name}" removed`,
    });
    return name;
  });
}
