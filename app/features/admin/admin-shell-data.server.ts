import type { SessionUser } from "~/features/auth/session.server";
import { ROLE_LABELS } from "~/lib/roles";
import { readCookie } from "~/server/cookies.server";
import { APP_VERSION } from "~/server/version.server";
import { adminNavFor, SIDEBAR_COOKIE } from "./nav";
import { readAdminShellFacts } from "./two-factor-guard.server";

/**
 * What the admin shell draws around a page (the admin area's and the post editor's): the user, the
 * sidebar entries this actor may open, the sidebar's remembered state, the unread and pending counts and the release (the layouts add the mail banner).
 */
export async function adminShellData(request: Request, actor: SessionUser) {
  const facts = await readAdminShellFacts(request, actor);
  return {
    user: { email: actor.email, roleLabel: ROLE_LABELS[actor.role] },
    // Only the paths: the permission functions stay on the server, the list is filtered here.
    nav: adminNavFor(actor)
      .map((item) => item.to)
      .filter((to) => to !== "/admin/statistics" || facts.statisticsShown),
    sidebarOpen: readCookie(request, SIDEBAR_COOKIE) !== "false",
    unreadMessages: facts.unreadMessages,
    pendingComments: facts.pendingComments,
    version: APP_VERSION,
  };
}
