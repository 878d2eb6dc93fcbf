import { data, redirect } from "react-router";
import { canEdit } from "~/lib/permissions";
import { requirePermission, getSessionUser, type SessionUser } from "~/features/auth/session.server";
import { errorAnswer, withRouteErrors } from "~/server/errors.server";
import { redirectWithToast } from "~/server/toast.server";

export const ACCESS_DENIED = {
  title: "Access Denied",
  description: "You don't have permission to access the admin area.",
} as const;

/** SPEC §4 admin access: no user → /auth; without canEdit → / with the Access Denied toast. */
export async function requireAdminArea(request: Request): Promise<SessionUser> {
  const found = await getSessionUser(request);
  if (!found) throw redirect("/auth");
  if (!canEdit(found)) throw redirectWithToast("/", { ...ACCESS_DENIED, type: "error" });
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
  return withRouteErrors(() => requirePermission(request, allowed, message));
}

export interface ActionFailure {
  ok: false;
  error: string;
  fieldErrors?: Record<string, string[]>;
}

/** Domain errors become a 4xx answer with a message the form shows; anything else is a logged 500. */
export function actionFailure(error: unknown) {
  const { status, message, fieldErrors, headers } = errorAnswer(error);
  return data<ActionFailure>({ ok: false, error: message, ...(fieldErrors ? { fieldErrors } : {}) }, { status, headers });
}
