import { redirect } from "react-router";
import type { z } from "zod";
import { canEdit } from "~/lib/permissions";
import { getSessionUser, type SessionUser } from "~/features/auth/session.server";
import { authorize } from "~/server/authorize.server";
import { parseSubmission, type Submission } from "~/lib/forms";
import { getDb, type Db } from "~/server/db/client.server";
import { errorAnswer, isAppError, throwRouteError, ValidationError, withRouteErrors, type ErrorAnswer } from "~/server/errors.server";
import { readForm } from "~/server/form.server";
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
export async function requireActor(request: Request, allowed: (actor: SessionUser) => boolean, message: string): Promise<SessionUser> {
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

type IntentHandlers = Record<string, (ctx: AdminFormContext) => Promise<unknown>>;

export interface AdminFormContext {
  /** The session user, or null: the domain function each intent calls decides what they may do. */
  actor: SessionUser | null;
  db: Db;
  formData: FormData;
  form: Record<string, FormDataEntryValue>;
  /** Checks the form with the shared schema the browser uses; the submission is kept for the failure reply. */
  parse<Schema extends z.ZodType>(schema: Schema): Submission<z.input<Schema>, string[], z.output<Schema>>;
}

/**
 * An admin page's action: reads the form, runs the handler named by its `intent` field, and answers a
 * failure once for every admin form (refusals as error pages, anything else as the form's reply).
 */
export async function handleAdminForm<Handlers extends IntentHandlers>(
  request: Request,
  intents: Handlers,
): Promise<Awaited<ReturnType<Handlers[keyof Handlers]>> | ReturnType<typeof adminFormFailure>>;
export async function handleAdminForm(request: Request, intents: IntentHandlers): Promise<unknown> {
  const actor = await getSessionUser(request);
  const formData = await withRouteErrors(() => readForm(request));
  const form = Object.fromEntries(formData);
  let submission: Submission<unknown> | undefined;
  const ctx: AdminFormContext = {
    actor,
    db: getDb(),
    formData,
    form,
    parse: (schema) => {
      const parsed = parseSubmission(formData, schema);
      submission = parsed;
      return parsed;
    },
  };
  try {
    const intent = typeof form.intent === "string" ? form.intent : "";
    const handler = Object.hasOwn(intents, intent) ? intents[intent] : undefined;
    if (!handler) throw new ValidationError("Unknown action.");
    return await handler(ctx);
  } catch (error) {
    return adminFormFailure(error, submission);
  }
}
