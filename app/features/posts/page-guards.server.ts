import { redirect } from "react-router";
import { canEdit } from "~/lib/permissions";
import { getSessionUser, type SessionUser } from "~/features/auth/session.server";
import { invariantResponse, NOT_PERMITTED, NOT_SIGNED_IN } from "~/server/errors.server";

/** For staff-only pages: anonymous → /auth (then back), signed in without canEdit → 403. */
export async function requireStaffPage(request: Request): Promise<SessionUser> {
  const user = await getSessionUser(request);
  // After a form POST (React Router runs the page loaders with the POST's headers) an anonymous
  // caller gets the action's 401, not a redirect that would hide it.
  invariantResponse(user || !request.headers.has("content-type"), NOT_SIGNED_IN, { status: 401 });
  if (!user) {
    const url = new URL(request.url);
    throw redirect(`/auth?redirectTo=${encodeURIComponent(url.pathname + url.search)}`);
  }
  invariantResponse(canEdit(user), NOT_PERMITTED, { status: 403 });
  return user;
}
