import { getSessionUser } from "~/features/auth/session.server";
import { previewPostBody } from "~/features/posts/content/post-render.server";
import { getDb } from "~/server/db/client.server";
import { toResponse } from "~/server/errors.server";
import { readForm } from "~/server/form.server";
import { LIMITS } from "~/server/limits.server";
import type { Route } from "./+types/post-preview";
import { requireTwoFactorForStaffApi } from "~/features/admin/two-factor-guard.server";

// While the site requires 2FA of staff, a staff member without it is refused here too (issue 15).
export const middleware: Route.MiddlewareFunction[] = [({ request }) => requireTwoFactorForStaffApi(request)];

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
    return toResponse(error);
  }
}

// No loader: GET/HEAD and other methods are answered 405 (JSON, with Allow) by server/app.ts.
