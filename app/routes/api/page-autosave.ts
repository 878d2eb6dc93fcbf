import { requireTwoFactorForStaff } from "~/features/auth/guards.server";
import { getSessionUser } from "~/features/auth/session.server";
import { discardPageAutosave, savePageAutosave } from "~/features/owner-pages/owner-pages.server";
import { getDb } from "~/server/db/client.server";
import { apiFailure } from "~/server/failure-reply.server";
import { readForm } from "~/server/form.server";
import { LIMITS } from "~/server/limits.server";
import { parseOrThrow } from "~/server/errors.server";
import { pageIdSchema } from "~/features/owner-pages/owner-page-schema";
import type { Route } from "./+types/page-autosave";

// While the site requires 2FA of staff, a staff member without it is refused here too.
export const middleware: Route.MiddlewareFunction[] = [({ request }) => requireTwoFactorForStaff(request, "api")];

/**
 * POST /api/pages/autosave — the page editor's unsaved text, as the posts' autosave hook sends it
 * (postId: the page's id, absent for a new page; title, content, baseVersion; intent=discard drops it).
 */
export async function action({ request }: Route.ActionArgs) {
  try {
    const user = await getSessionUser(request);
    const form = await readForm(request, LIMITS.postForm);
    const fields = Object.fromEntries([...form.entries()].filter((entry): entry is [string, string] => typeof entry[1] === "string"));
    const pageId = fields.postId ? parseOrThrow(pageIdSchema, fields.postId) : null;
    if (fields.intent === "discard") {
      await discardPageAutosave(getDb(), user, pageId);
      return Response.json({ discarded: true });
    }
    await savePageAutosave(getDb(), user, { ...fields, pageId: pageId ?? undefined });
    return Response.json({ saved: true }, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    return apiFailure(error);
  }
}
