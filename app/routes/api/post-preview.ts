import { getSessionUser } from "~/features/auth/session.server";
import { previewPostBody } from "~/features/posts/content/post-render.server";
import { getDb } from "~/server/db/client.server";
import { apiFailure } from "~/server/failure-reply.server";
import { readForm } from "~/server/form.server";
import { LIMITS } from "~/server/limits.server";
import type { Route } from "./+types/post-preview";
import { requireTwoFactorForStaff } from "~/features/auth/guards.server";

// While the site requires 2FA of staff, a staff member without it is refused here too.
export const middleware: Route.MiddlewareFunction[] = [({ request }) => requireTwoFactorForStaff(request, "api")];

/**
 * POST /api/posts/preview — form field `content`; staff only. Answers { html } rendered by the server's
 * Markdown renderer (the browser never parses Markdown). Same-site only, like every POST (server/app.ts).
 */
export async function action({ request }: Route.ActionArgs) {
  try {
    const user = await getSessionUser(request);
    const form = await readForm(request, LIMITS.postForm);
    const result = await previewPostBody(getDb(), user, { content: form.get("content") });
    return Response.json(result, { headers: { "Cache-Control": "private, no-store" } });
  } catch (error) {
    return apiFailure(error);
  }
}

// No loader: GET/HEAD and other methods are answered 405 (JSON, with Allow) by server/app.ts.
