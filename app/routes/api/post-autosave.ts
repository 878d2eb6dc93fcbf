import { getSessionUser } from "~/features/auth/session.server";
import { discardOwnAutosave, saveAutosave } from "~/features/posts/write/autosave.server";
import { getDb } from "~/server/db/client.server";
import { apiFailure } from "~/server/failure-reply.server";
import { readForm } from "~/server/form.server";
import { LIMITS } from "~/server/limits.server";
import type { Route } from "./+types/post-autosave";
import { requireTwoFactorForStaff } from "~/features/auth/guards.server";

// While the site requires 2FA of staff, a staff member without it is refused here too.
export const middleware: Route.MiddlewareFunction[] = [({ request }) => requireTwoFactorForStaff(request, "api")];

/**
 * POST /api/posts/autosave — the editor's unsaved text (form data: postId in edit mode, category,
 * title, excerpt, content, featuredImageUrl, baseVersion; intent=discard drops it). Sent by fetch
 * and, when the tab is hidden, by navigator.sendBeacon. Answers { savedAt } or { discarded }.
 */
export async function action({ request }: Route.ActionArgs) {
  try {
    const user = await getSessionUser(request);
    const form = await readForm(request, LIMITS.postForm);
    const fields = Object.fromEntries(
      [...form.entries()].filter((entry): entry is [string, string] => typeof entry[1] === "string" && entry[1] !== ""),
    );
    if (fields.intent === "discard") {
      await discardOwnAutosave(getDb(), user, fields);
      return Response.json({ discarded: true });
    }
    const { savedAt } = await saveAutosave(getDb(), user, fields);
    return Response.json({ savedAt: savedAt.toISOString() }, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    return apiFailure(error);
  }
}
