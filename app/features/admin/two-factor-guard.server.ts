import type { SessionUser } from "~/features/auth/session.server";
import { sql } from "drizzle-orm";
import { hasTwoFactorOf } from "~/features/auth/two-factor.server";
import { pendingCommentsCountOf } from "~/features/comments/comments.server";
import { unreadMessagesCountOf } from "~/features/contact/contact.server";
import { securitySettingsFrom, securitySettingsValueOf } from "~/features/settings/settings.server";
import { canModerateComments, canReadMessages, canViewStatistics } from "~/lib/permissions";
import { isStoredRole } from "~/lib/roles";
import { getDb, ONE_ROW, type Db } from "~/server/db/client.server";
import { requestMemo } from "~/server/request-scope.server";

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
  pendingComments: number;
  /** Whether the sidebar lists Statistics: always for an admin, for a moderator while the owner allows it. */
  statisticsShown: boolean;
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
  if (!actor) return { mustSetUpTwoFactor: false, unreadMessages: 0, pendingComments: 0, statisticsShown: false };
  const unread = canReadMessages(actor) ? unreadMessagesCountOf(actor) : sql<number>`0`.mapWith(Number);
  const pending = canModerateComments(actor) ? pendingCommentsCountOf(actor) : sql<number>`0`.mapWith(Number);
  const [row] = await db.select({ ...twoFactorColumns(actor), unread, pending }).from(ONE_ROW);
  return {
    mustSetUpTwoFactor: mustSetUpTwoFactor(actor, row),
    unreadMessages: row?.unread ?? 0,
    pendingComments: row?.pending ?? 0,
    statisticsShown: canViewStatistics(actor),
  };
}
