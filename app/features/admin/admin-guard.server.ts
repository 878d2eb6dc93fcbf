import { redirect } from "react-router";
import { canEdit } from "~/lib/permissions";
import { getSessionUser, type SessionUser } from "~/features/auth/session.server";
import { authorize } from "~/server/authorize.server";
import type { Submission } from "~/lib/forms";
import { errorAnswer, isAppError, throwRouteError, withRouteErrors, type ErrorAnswer } from "~/server/errors.server";
import { formFailure } from "~/server/form-reply.server";
import { redirectWithToast } from "~/server/toast.server";

export const ACCESS_DENIED = {
  title: "Access Denied",
  description: "You don't have permission to access the admin area.",
} as const;

/** SPEC §4 admin access: no user → /auth; without canEdit → / with the Access Denied toast. */
export async function requireAdminArea(request: Request): Promise<SessionUser> {
  const found = await getSessionUser(request);
  if (!found) throw redirect("/auth");
  if (!canEdit(found)) throw await redirectWithToast("/", { ...ACCESS_DENIED, type: "error" });
  return found;
}

/**
 * For admin loaders and actions: the actor, or a thrown 401/403 response carrying the message (shown
 * by the error boundary; also what a plain HTTP client gets).
 */
export async function requireActor(
  request: Request,
  allowed: (actor: SessionUser) => boolean,
  message: string,
): Promise<SessionUser> {
  const actor = await getSessionUser(request);
  return withRouteErrors(async () => {
    authorize(actor, allowed, message);
    return actor;
  });
}

/**
 * The failure of an admin action. A refusal (401/403, decided by the domain function) is thrown: the
 * error page says why, as the page's own guard would. Anything else is answered to the form.
 */
function throwRefusal(error: unknown): void {
  if (isAppError(error) && (error.status === 401 || error.status === 403)) throwRouteError(error);
}

/** An admin action's failure as an answer (status, message) for a form that reads its own shape. */
export function adminFailure(error: unknown): ErrorAnswer {
  throwRefusal(error);
  return errorAnswer(error);
}

/** An admin action's failure as the reply of the one form layer (form-reply.server). */
export function adminFormFailure(error: unknown, submission?: Submission<unknown>) {
  throwRefusal(error);
  return formFailure(error, submission);
}
