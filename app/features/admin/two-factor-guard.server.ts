import { redirect } from "react-router";
import { getSessionUser, type SessionUser } from "~/features/auth/session.server";
import { hasTwoFactor } from "~/features/auth/two-factor.server";
import { readSecuritySettings } from "~/features/site/settings.server";
import { isStoredRole } from "~/lib/roles";
import { getDb, type Db } from "~/server/db/client.server";

/** Where a staff member without two-factor authentication is sent while the site requires it. */
export const TWO_FACTOR_SETUP_PATH = "/admin/account";

/** Whether the site requires 2FA of this user (admins and moderators) and they have not set it up. */
export async function staffMustUseTwoFactor(db: Db, actor: Pick<SessionUser, "id" | "role"> | null): Promise<boolean> {
  if (!actor || !isStoredRole(actor.role)) return false;
  if (!(await readSecuritySettings(db)).requireTwoFactor) return false;
  return !(await hasTwoFactor(db, actor.id));
}

/**
 * The admin area's server middleware (every admin loader and action, document and data requests):
 * while 'Require two-factor authentication for admins and moderators' is on, a staff member without it
 * reaches only /admin/account, where it is set up. Signing out (/logout) stays outside the admin area.
 */
export async function requireTwoFactorSetup(request: Request): Promise<void> {
  const path = new URL(request.url).pathname.replace(/\.data$/, "");
  if (path === TWO_FACTOR_SETUP_PATH) return;
  const db = getDb();
  if (await staffMustUseTwoFactor(db, await getSessionUser(request, db))) throw redirect(TWO_FACTOR_SETUP_PATH);
}
