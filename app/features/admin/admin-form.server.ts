import type { z } from "zod";
import { authorizeArea } from "~/features/auth/guards.server";
import { getSessionUser, type SessionUser } from "~/features/auth/session.server";
import type { Area } from "~/lib/permissions";
import { parseSubmission, type Submission } from "~/lib/forms";
import { getDb, type Db } from "~/server/db/client.server";
import { ValidationError } from "~/server/errors.server";
import { readForm } from "~/server/form.server";
import { formFailure, withPageFailures } from "~/server/failure-reply.server";

type IntentHandlers = Record<string, (ctx: AdminFormContext) => Promise<unknown>>;

export interface AdminFormContext {
  /** The signed-in user the area admitted; each domain function still decides what they may do. */
  actor: SessionUser;
  db: Db;
  formData: FormData;
  form: Record<string, FormDataEntryValue>;
  /** Checks the form with the shared schema the browser uses; the submission is kept for the failure reply. */
  parse<Schema extends z.ZodType>(schema: Schema): Submission<z.input<Schema>, string[], z.output<Schema>>;
}

/**
 * THE form-action pipeline of the admin pages, in a fixed order: read the body within its limit (413),
 * authorize the area (401/403, shown as the error page), run the handler named by the form's `intent`
 * (it validates — 400 with field errors — then calls the feature), and answer a failure with the one
 * form reply (refusals a domain function decides are error pages too).
 */
export async function handleAdminForm<Handlers extends IntentHandlers>(
  request: Request,
  area: Area,
  intents: Handlers,
): Promise<Awaited<ReturnType<Handlers[keyof Handlers]>> | ReturnType<typeof formFailure>>;
export async function handleAdminForm(request: Request, area: Area, intents: IntentHandlers): Promise<unknown> {
  const formData = await withPageFailures(() => readForm(request));
  const actor = await getSessionUser(request);
  await withPageFailures(async () => authorizeArea(actor, area));
  if (!actor) return undefined; // unreachable: authorizeArea refused
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
    return formFailure(error, submission, { refusals: "page" });
  }
}
