import type { SessionUser } from "~/features/auth/session.server";
import { staffMustUseTwoFactor } from "~/features/admin/two-factor-guard.server";
import type { Db } from "~/server/db/client.server";
import { withPageFailures } from "~/server/failure-reply.server";
import { listOwnSessions } from "./account.server";
import { readPendingEmailChange } from "./account-email.server";
import { hasTwoFactor } from "~/features/auth/two-factor.server";
import { isMailConfigured } from "~/server/mail-settings.server";
import { listOwnPasskeys } from "./passkeys-account.server";
import { getOwnTwoFactor } from "./two-factor-account.server";

/** What /admin/account shows of the signed-in user: email, two-factor state, passkeys and sessions. */
export async function accountPageView(db: Db, actor: SessionUser) {
  const [sessions, twoFactor, passkeys, required, pendingEmail, mailWorks, secondFactor] = await Promise.all([
    withPageFailures(() => listOwnSessions(db, actor)),
    withPageFailures(() => getOwnTwoFactor(db, actor)),
    withPageFailures(() => listOwnPasskeys(db, actor)),
    staffMustUseTwoFactor(db, actor),
    withPageFailures(() => readPendingEmailChange(db, actor)),
    isMailConfigured(db),
    hasTwoFactor(db, actor.id),
  ]);
  return {
    email: actor.email,
    emailChange: {
      mailWorks,
      /** Without mail the change applies at once, so the second factor is asked for with the password. */
      needsCode: !mailWorks && secondFactor,
      pending: pendingEmail ? { email: pendingEmail.email, expiresAt: pendingEmail.expiresAt.toISOString() } : null,
    },
    twoFactor: {
      enabled: twoFactor.enabled,
      secondFactor: twoFactor.secondFactor,
      pending: twoFactor.pending ? { secret: twoFactor.pending.secret, qrDataUrl: twoFactor.pending.qrDataUrl } : null,
      recoveryCodesLeft: twoFactor.recoveryCodesLeft,
      required,
    },
    passkeys: passkeys.map((p) => ({
      id: p.id,
      name: p.name,
      createdAt: p.createdAt.toISOString(),
      lastUsedAt: p.lastUsedAt?.toISOString() ?? null,
    })),
    sessions: sessions.map((s) => ({ ...s, lastSeenAt: s.lastSeenAt.toISOString(), createdAt: s.createdAt.toISOString() })),
  };
}
