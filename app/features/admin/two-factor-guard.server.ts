import { redirect } from "react-router";
import { getSessionUser, type SessionUser } from "~/features/auth/session.server";
import { sql } from "drizzle-orm";
import { hasTwoFactorOf } from "~/features/auth/two-factor.server";
import { unreadMessagesCountOf } from "~/features/contact/contact.server";
import { securitySettingsFrom, securitySettingsValueOf } from "~/features/settings/settings.server";
import { canReadMessages } from "~/lib/permissions";
import { isStoredRole } from "~/lib/roles";
import { getDb, ONE_ROW, type Db } from "~/server/db/client.server";
import { requestMemo } from "~/server/request-scope.server";
import { ForbiddenError, toResponse } from "~/server/errors.server";

/** Where a staff member without two-factor authentication is sent while the site requires it. */
export const TWO_FACTOR_SETUP_PATH = "/admin/account";

type TwoFactorActor = Pick<SessionUser, "id" | "role">;

/** The columns the two-factor rule reads, for the caller's statement. */
function twoFactorColumns(actor: TwoFactorActor) {
  return { security: securitySettingsValueOf(), hasTwoFactor: hasTwoFactorOf(actor.id) };
}

/** The rule: the site requires 2FA of admins and moderators, and this one has not set it up. */
function mustSetUpTwoFactor(actor: TwoFactorActor, row: { security: string | null; hasTwoFactor: boolean } | undefined): boolean {
  return isStoredRole(actor.role) && securitySettingsFrom(row?.security).requireTwoFactor && row?.hasTwoFactor !== true;
}

/** Whether the site requires 2FA of this user (admins and moderators) and they have not set it up. */
export async function staffMustUseTwoFactor(db: Db, actor: TwoFactorActor | null): Promise<boolean> {
  if (!actor || !isStoredRole(actor.role)) return false;
  const [row] = await db.select(twoFactorColumns(actor)).from(ONE_ROW);
  return mustSetUpTwoFactor(actor, row);
}

/** What the admin shell reads on every admin request: the middleware's two-factor rule and the layout's unread count. */
export interface AdminShellFacts {
  mustSetUpTwoFactor: boolean;
  unreadMessages: number;
}

const shellFacts = requestMemo<Promise<AdminShellFacts>>();

/**
 * The admin shell's facts in one statement (each statement costs PGlite several round trips), read
 * once per page request by the middleware and the layout's loader. Only reads (GET/HEAD) share it:
 * an action may mark messages handled or set up two-factor, and the loaders after it read again.
 */
export function readAdminShellFacts(request: Request, actor: SessionUser | null, db: Db = getDb()): Promise<AdminShellFacts> {
  if (request.method !== "GET" && request.method !== "HEAD") return lookUpAdminShellFacts(actor, db);
  return shellFacts(request, () => lookUpAdminShellFacts(actor, db));
}

async function lookUpAdminShellFacts(actor: SessionUser | null, db: Db): Promise<AdminShellFacts> {
  if (!actor) return { mustSetUpTwoFactor: false, unreadMessages: 0 };
  const unread = canReadMessages(actor) ? unreadMessagesCountOf(actor) : sql<number>`0`.mapWith(Number);
  const [row] = await db.select({ ...twoFactorColumns(actor), unread }).from(ONE_ROW);
  return { mustSetUpTwoFactor: mustSetUpTwoFactor(actor, row), unreadMessages: row?.unread ?? 0 };
}

/**
 * The admin area's server middleware (every admin loader and action, document and data requests):
 * while 'Require two-factor authentication for admins and moderators' is on, a staff member without it
 * reaches only /admin/account, where it is set up. Signing out (/logout) stays outside the admin area.
 */
export async function requireTwoFactorSetup(request: Request): Promise<void> {
  const path = new URL(request.url).pathname.replace(/\.data$/, "");
  if (path === TWO_FACTOR_SETUP_PATH) return;
  const facts = await readAdminShellFacts(request, await getSessionUser(request));
  if (facts.mustSetUpTwoFactor) throw redirect(TWO_FACTOR_SETUP_PATH);
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
