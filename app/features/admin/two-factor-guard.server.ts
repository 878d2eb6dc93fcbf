import { redirect } from "react-router";
import { getSessionUser, type SessionUser } from "~/features/auth/session.server";
import { hasTwoFactor } from "~/features/auth/two-factor.server";
import { readSecuritySettings } from "~/features/site/settings.server";
import { isStoredRole } from "~/lib/roles";
import { getDb, type Db } from "~/server/db/client.server";
import { ForbiddenError, toResponse } from "~/server/errors.server";

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
  await requireTwoFactorForStaffPage(request);
}

export const TWO_FACTOR_REQUIRED =
  "This site requires two-factor authentication for administrators and moderators. Set it up on /admin/account first.";

/**
 * The same rule for staff writes outside the admin area, as route middleware: the post editor's pages
 * (/7fs/:category/new, /…/edit, the post page's delete) send the staff member to set it up; the JSON APIs
 * (/api/uploads, /api/posts/*) answer 403 with the reason.
 */
export async function requireTwoFactorForStaffPage(request: Request): Promise<void> {
  const db = getDb();
  if (await staffMustUseTwoFactor(db, await getSessionUser(request, db))) throw redirect(TWO_FACTOR_SETUP_PATH);
}

export async function requireTwoFactorForStaffApi(request: Request): Promise<void> {
  const db = getDb();
  if (await staffMustUseTwoFactor(db, await getSessionUser(request, db))) throw toResponse(new ForbiddenError(TWO_FACTOR_REQUIRED));
}
