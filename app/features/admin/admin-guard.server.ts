import { data, redirect } from "react-router";
import { canEdit } from "~/lib/permissions";
import { getSessionUser, type SessionUser } from "~/features/auth/session.server";
import { authorize } from "~/server/authorize.server";
import { errorAnswer, throwRouteError, withRouteErrors, type ErrorAnswer } from "~/server/errors.server";
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

export interface ActionFailure {
  ok: false;
  error: string;
  fieldErrors?: Record<string, string[]>;
}

/**
 * The failure of an admin action. A refusal (401/403, decided by the domain function) is thrown: the
 * error page says why, as the page's own guard would. Anything else is answered to the form.
 */
export function adminFailure(error: unknown): ErrorAnswer {
  const answer = errorAnswer(error);
  if (answer.status === 401 || answer.status === 403) throwRouteError(error);
  return answer;
}

/** adminFailure as the `{ ok: false, error, fieldErrors }` the admin forms read. */
export function actionFailure(error: unknown) {
  const { status, message, fieldErrors, headers } = adminFailure(error);
  return data<ActionFailure>({ ok: false, error: message, ...(fieldErrors ? { fieldErrors } : {}) }, { status, headers });
}
