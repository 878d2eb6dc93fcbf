import { requireUser } from "~/features/users/users.server";
import { recordAudit } from "~/server/audit.server";
import type { Db } from "~/server/db/client.server";
import { deleteAllPasskeys } from "./passkeys.server";
import { removeSecondFactors } from "./two-factor.server";

/**
 * Account recovery by the operator (`npm run cli -- reset-2fa <email>`): removes the user's authenticator
 * app, recovery codes, passkeys and pending sign-ins, so the password alone signs in again. Audited.
 */
export async function resetTwoFactor(db: Db, emailInput: string): Promise<{ email: string; removed: boolean }> {
  const found = await requireUser(db, emailInput);
  return db.transaction(async (tx) => {
    const { removed } = await removeSecondFactors(tx, found.id);
    const passkeysRemoved = await deleteAllPasskeys(tx, found.id);
    await recordAudit(tx, {
      actor: null,
      action: "user.2fa.reset",
      target: { type: "user", id: found.id },
      summary: `${found.email}: second factors removed by the operator (CLI)`,
    });
    return { email: found.email, removed: removed || passkeysRemoved > 0 };
  });
}
