import { and, eq } from "drizzle-orm";
import type { SessionUser } from "~/features/auth/session.server";
import { INVALID_CODE, totpConfirmSchema, twoFactorDisableSchema } from "~/features/auth/two-factor-schema";
import {
  hasTwoFactor,
  issueRecoveryCodesIfNone,
  readSecret,
  RECOVERY_CODE_COUNT,
  readTwoFactorState,
  removeAuthenticatorApp,
  replaceRecoveryCodes,
  storePendingSecret,
  verifySecondFactor,
  verifyTotp,
  type TwoFactorState,
} from "~/features/auth/two-factor.server";
import { canEdit } from "~/lib/permissions";
import { recordAudit, type AuditEntry } from "~/server/audit.server";
import { authorize } from "~/server/authorize.server";
import type { Db } from "~/server/db/client.server";
import { account, twoFactor } from "~/server/db/schema.server";
import { ConflictError, parseOrThrow, ValidationError } from "~/server/errors.server";
import { verifyPassword } from "~/server/password.server";
import { enforceRateLimits } from "~/server/rate-limit.server";
import { ACCOUNT_FORBIDDEN } from "./account.server";

/** Two-factor authentication on /admin/account: the signed-in staff member's own, nobody else's. */

const ALREADY_ON = "Two-factor authentication is already on.";
const NO_SETUP = "Start the setup again: 'Set up authenticator app'.";
const NOT_ON = "Two-factor authentication is not on.";
const WRONG_CREDENTIAL = "That is neither your current password nor a valid code.";

/** How the audit log says that codes were issued. */
export const CODES_ISSUED = `${RECOVERY_CODE_COUNT} recovery codes issued`;

/**
 * Recovery codes issued in the caller's transaction, with the audit row that says so: a new set (the
 * old codes stop working), or with `ifNone` only for an account that has none yet. Returns the codes,
 * shown this once, or null when none were issued; `summary` gets the same.
 */
export async function issueRecoveryCodes(
  tx: Db,
  actor: SessionUser,
  {
    ifNone = false,
    summary,
    ...audit
  }: Pick<AuditEntry, "action" | "target"> & { ifNone?: boolean; summary: (codes: string[] | null) => string },
): Promise<string[] | null> {
  const codes = ifNone ? await issueRecoveryCodesIfNone(tx, actor.id) : await replaceRecoveryCodes(tx, actor.id);
  await recordAudit(tx, { ...audit, actor, summary: summary(codes) });
  return codes;
}

/** Guessing codes or the password through these forms is as limited as through the sign-in form. */
function limitGuesses(db: Db, actor: SessionUser) {
  return enforceRateLimits(db, [{ key: `account-2fa:${actor.id}`, limit: 5, windowSeconds: 15 * 60 }]);
}

export async function getOwnTwoFactor(db: Db, actor: SessionUser | null): Promise<TwoFactorState> {
  authorize(actor, canEdit, ACCOUNT_FORBIDDEN);
  return readTwoFactorState(db, actor);
}

/** 'Set up authenticator app': a new secret, waiting for its first code. */
export async function startTotpSetup(db: Db, actor: SessionUser | null): Promise<void> {
  authorize(actor, canEdit, ACCOUNT_FORBIDDEN);
  await db.transaction(async (tx) => {
    if ((await readTwoFactorState(tx, actor)).enabled) throw new ConflictError(ALREADY_ON);
    await storePendingSecret(tx, actor.id);
  });
}

export async function cancelTotpSetup(db: Db, actor: SessionUser | null): Promise<void> {
  authorize(actor, canEdit, ACCOUNT_FORBIDDEN);
  const [enabled] = await db.select({ enabledAt: twoFactor.enabledAt }).from(twoFactor).where(eq(twoFactor.userId, actor.id));
  if (enabled && !enabled.enabledAt) await db.transaction((tx) => removeAuthenticatorApp(tx, actor.id));
}

/** The first valid code turns 2FA on; returns the 10 recovery codes, shown this once. */
export async function confirmTotpSetup(db: Db, actor: SessionUser | null, raw: unknown): Promise<string[]> {
  authorize(actor, canEdit, ACCOUNT_FORBIDDEN);
  const { code } = parseOrThrow(totpConfirmSchema, raw);
  await limitGuesses(db, actor);
  const pending = await readSecret(db, actor.id, "pending");
  if (!pending) throw new ValidationError(NO_SETUP);
  const step = await verifyTotp(pending.secret, code, null);
  if (step === null) throw new ValidationError(INVALID_CODE, { code: [INVALID_CODE] });
  return db.transaction(async (tx) => {
    await tx.update(twoFactor).set({ enabledAt: new Date(), lastUsedStep: step }).where(eq(twoFactor.userId, actor.id));
    return newCodes(tx, actor, "account.2fa.enable", `authenticator app added; ${CODES_ISSUED}`);
  });
}

/** True when the credential is the actor's password, or a valid app or recovery code (used up). */
async function provesIdentity(tx: Db, actor: SessionUser, credential: string): Promise<boolean> {
  const [row] = await tx
    .select({ hash: account.password })
    .from(account)
    .where(and(eq(account.userId, actor.id), eq(account.providerId, "credential")));
  if (row?.hash && (await verifyPassword(row.hash, credential))) return true;
  return credential.length <= 40 && (await verifySecondFactor(tx, actor.id, credential)) !== null;
}

/** 'Turn off two-factor authentication': the current password or a code is required. */
export async function disableTwoFactor(db: Db, actor: SessionUser | null, raw: unknown): Promise<void> {
  authorize(actor, canEdit, ACCOUNT_FORBIDDEN);
  const { credential } = parseOrThrow(twoFactorDisableSchema, raw);
  await limitGuesses(db, actor);
  await db.transaction(async (tx) => {
    if (!(await provesIdentity(tx, actor, credential))) throw new ValidationError(WRONG_CREDENTIAL, { credential: [WRONG_CREDENTIAL] });
    const { removed, codesKept } = await removeAuthenticatorApp(tx, actor.id);
    if (!removed) throw new ValidationError(NOT_ON);
    await recordAudit(tx, {
      actor,
      action: "account.2fa.disable",
      target: { type: "user", id: actor.id },
      summary: codesKept
        ? "authenticator app removed; recovery codes kept for the passkeys"
        : "authenticator app and recovery codes removed",
    });
  });
}

/** New recovery codes (the old ones stop working) for an account with an app or a passkey; the current password or a code is required. */
export async function regenerateRecoveryCodes(db: Db, actor: SessionUser | null, raw: unknown): Promise<string[]> {
  authorize(actor, canEdit, ACCOUNT_FORBIDDEN);
  const { credential } = parseOrThrow(twoFactorDisableSchema, raw);
  await limitGuesses(db, actor);
  return db.transaction(async (tx) => {
    if (!(await hasTwoFactor(tx, actor.id))) throw new ValidationError(NOT_ON);
    if (!(await provesIdentity(tx, actor, credential))) throw new ValidationError(WRONG_CREDENTIAL, { credential: [WRONG_CREDENTIAL] });
    return newCodes(tx, actor, "account.2fa.recovery-codes", `${RECOVERY_CODE_COUNT} new recovery codes issued`);
  });
}

/** A new set of codes for the actor's own account. */
async function newCodes(tx: Db, actor: SessionUser, action: string, summary: string): Promise<string[]> {
  return (await issueRecoveryCodes(tx, actor, { action, target: { type: "user", id: actor.id }, summary: () => summary })) ?? [];
}
