import { STATISTICS_TEXT } from "~/features/analytics/analytics-settings";
import { redirect } from "react-router";
import { COMMENTS_FORBIDDEN } from "~/features/comments/comments.server";
import { BOOKINGS_FORBIDDEN } from "~/features/booking/booking-schema";
import { INBOX_FORBIDDEN } from "~/features/contact/contact.server";
import { ACCOUNT_FORBIDDEN } from "~/features/account/account.server";
import { readAdminShellFacts, staffMustUseTwoFactor } from "~/features/admin/two-factor-guard.server";
import { MAIL_FORBIDDEN } from "~/features/mail/mail-settings-schema";
import { PROJECTS_FORBIDDEN } from "~/features/projects/project-schema";
import { SETTINGS_FORBIDDEN } from "~/features/settings/settings-schema";
import { PAGE_CONTENT_FORBIDDEN } from "~/features/pages/testimonials-schema";
import { SUBSCRIBERS_FORBIDDEN } from "~/features/subscriptions/subscriptions.server";
import { USERS_FORBIDDEN } from "~/features/users/user-schema";
import { canEnterArea, type Area } from "~/lib/permissions";
import { AUDIT_FORBIDDEN } from "~/server/audit.server";
import { authorize } from "~/server/authorize.server";
import { getDb } from "~/server/db/client.server";
import { ForbiddenError, isAppError, NOT_PERMITTED, UnauthorizedError } from "~/server/errors.server";
import { apiFailure, throwPageFailure } from "~/server/failure-reply.server";
import { redirectWithToast } from "~/server/toast.server";
import { getSessionUser, type SessionUser } from "./session.server";

/**
 * THE home of every route guard. Each guard decides with the one permissions module (app/lib/permissions)
 * and refuses with a typed error (UnauthorizedError 401, ForbiddenError 403); failure-reply.server turns
 * it into the answer of the kind of request (page: status and message on the error page; JSON API:
 * `{ error }`). The admin shell alone answers a page visit with redirects (SPEC §4).
 */

export const ACCESS_DENIED = {
  title: "Access Denied",
  description: "You don't have permission to access the admin area.",
} as const;

/** The sentence a refusal of each area says. */
const AREA_REFUSAL: Record<Area, string> = {
  admin: ACCESS_DENIED.description,
  posts: NOT_PERMITTED,
  messages: INBOX_FORBIDDEN,
  account: ACCOUNT_FORBIDDEN,
  settings: SETTINGS_FORBIDDEN,
  mail: MAIL_FORBIDDEN,
  "page-content": PAGE_CONTENT_FORBIDDEN,
  projects: PROJECTS_FORBIDDEN,
  users: USERS_FORBIDDEN,
  subscribers: SUBSCRIBERS_FORBIDDEN,
  audit: AUDIT_FORBIDDEN,
  statistics: STATISTICS_TEXT.forbidden,
  comments: COMMENTS_FORBIDDEN,
  bookings: BOOKINGS_FORBIDDEN,
};

/** The typed refusal: no user → UnauthorizedError, a user the area's rule refuses → ForbiddenError. */
export function authorizeArea(actor: SessionUser | null, area: Area): asserts actor is SessionUser {
  authorize(actor, (a) => canEnterArea(a, area), AREA_REFUSAL[area]);
}

/** A signed-in user, or the page's 401. */
export async function requireUser(request: Request): Promise<SessionUser> {
  const user = await getSessionUser(request);
  if (!user) throwPageFailure(new UnauthorizedError());
  return user;
}

/** A user the area admits, or the page's 401/403 with the area's message. */
export async function requireArea(request: Request, area: Area): Promise<SessionUser> {
  return admittedTo(await getSessionUser(request), area);
}

/**
 * A staff-only page outside the admin area (the post editor, the posts list): anonymous → /auth (then
 * back), signed in without the staff role → 403. After a form POST (React Router runs the page loaders
 * with the POST's headers) an anonymous caller gets the action's 401, not a redirect that would hide it.
 */
export async function requireStaff(request: Request): Promise<SessionUser> {
  const user = await getSessionUser(request);
  if (!user && !request.headers.has("content-type")) {
    const url = new URL(request.url);
    throw redirect(`/auth?redirectTo=${encodeURIComponent(url.pathname + url.search)}`);
  }
  return admittedTo(user, "posts");
}

function admittedTo(actor: SessionUser | null, area: Area): SessionUser {
  try {
    authorizeArea(actor, area);
  } catch (error) {
    throwPageFailure(error);
  }
  return actor;
}

/** The admin shell's page visit (SPEC §4 admin access): no user → /auth; a refused user → / with the Access Denied toast. */
export async function requireAdminShell(request: Request): Promise<SessionUser> {
  const actor = await getSessionUser(request);
  try {
    authorizeArea(actor, "admin");
    return actor;
  } catch (error) {
    if (isAppError(error) && error.status === 401) throw redirect("/auth");
    throw await redirectWithToast("/", { ...ACCESS_DENIED, type: "error" });
  }
}

/** Where a staff member without two-factor authentication is sent while the site requires it. */
export const TWO_FACTOR_SETUP_PATH = "/admin/account";

export const TWO_FACTOR_REQUIRED =
  "This site requires two-factor authentication for administrators and moderators. Set it up on /admin/account first.";

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

/**
 * The same rule for staff work outside the admin area, as route middleware: the post editor's pages
 * (/7fs/:category/new, /…/edit, the post page's delete) send the staff member to set it up; the JSON
 * APIs (/api/uploads, /api/posts/*) answer 403 with the reason.
 */
export async function requireTwoFactorForStaff(request: Request, kind: "page" | "api"): Promise<void> {
  const db = getDb();
  if (!(await staffMustUseTwoFactor(db, await getSessionUser(request, db)))) return;
  if (kind === "page") throw redirect(TWO_FACTOR_SETUP_PATH);
  throw apiFailure(new ForbiddenError(TWO_FACTOR_REQUIRED));
}
