import type { SessionUser } from "~/features/auth/session.server";
import { staffMustUseTwoFactor } from "~/features/admin/two-factor-guard.server";
import type { Db } from "~/server/db/client.server";
import { withPageFailures } from "~/server/failure-reply.server";
import { listOwnSessions } from "./account.server";
import { listOwnPasskeys } from "./passkeys-account.server";
import { getOwnTwoFactor } from "./two-factor-account.server";

/** What /admin/account shows of the signed-in user: two-factor state, passkeys and sessions. */
export async function accountPageView(db: Db, actor: SessionUser) {
  const [sessions, twoFactor, passkeys, required] = await Promise.all([
    withPageFailures(() => listOwnSessions(db, actor)),
    withPageFailures(() => getOwnTwoFactor(db, actor)),
    withPageFailures(() => listOwnPasskeys(db, actor)),
    staffMustUseTwoFactor(db, actor),
  ]);
  return {
    email: actor.email,
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
