import { submitContactMessage } from "~/features/contact/contact.server";
import { getDb } from "~/server/db/client.server";
import { readJson } from "~/server/form.server";
import { apiFailure } from "~/server/failure-reply.server";
import { clientIp } from "~/server/request.server";
import type { Route } from "./+types/send-contact-email";

/**
 * POST /api/send-contact-email — JSON {name, email, message, turnstileToken, clientId?}.
 * 201 {ok, id} when stored (200 for a replay of a stored submission); failures carry `error`
 * (400 with fieldErrors, 403 verification, 409 reused id, 429 with Retry-After).
 */
export async function action({ request }: Route.ActionArgs) {
  try {
    const body = await readJson(request);
    const result = await submitContactMessage(getDb(), body, clientIp(request));
    return Response.json({ ok: true, id: result.id }, { status: result.created ? 201 : 200 });
  } catch (error) {
    return apiFailure(error);
  }
}

// No loader: GET/HEAD and other methods are answered 405 (JSON, with Allow) by server/app.ts.
