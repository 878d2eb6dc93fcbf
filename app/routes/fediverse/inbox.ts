import { receiveActivity, INBOX_MAX_BYTES } from "~/features/fediverse/inbox.server";
import { getDb } from "~/server/db/client.server";
import { ValidationError } from "~/server/errors.server";
import { apiFailure } from "~/server/failure-reply.server";
import { readBodyUpTo } from "~/server/form.server";
import { clientIp } from "~/server/request.server";
import type { Route } from "./+types/inbox";

/**
 * POST /ap/inbox — the actor's inbox (and its instance's shared inbox). 202 once a signed activity is
 * taken; 401 for an unsigned or badly signed one, 403 for a blocked instance, 400 for what is not an
 * activity, 429 when an instance sends too many.
 */
export async function action({ request }: Route.ActionArgs) {
  try {
    const body = await readBodyUpTo(request, INBOX_MAX_BYTES, { cancelOnOverflow: true });
    if (!body) throw new ValidationError(`An activity must be at most ${INBOX_MAX_BYTES} bytes.`);
    const outcome = await receiveActivity(getDb(), {
      method: request.method,
      url: request.url,
      header: (name) => request.headers.get(name),
      body,
      ip: clientIp(request),
    });
    return new Response(null, { status: 202, headers: { "x-activity": outcome, "cache-control": "no-store" } });
  } catch (error) {
    return apiFailure(error);
  }
}

// No loader: GET/HEAD are answered 405 (with Allow) by server/app.ts.
