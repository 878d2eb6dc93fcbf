import { requireSessionUser } from "~/features/auth/session.server";
import { readForm } from "~/features/posts/http.server";
import { discardAutosave, saveAutosave } from "~/features/posts/autosave.server";
import { z } from "zod";
import { CATEGORIES } from "~/lib/categories";
import { getDb } from "~/server/db/client.server";
import { errorBody, ValidationError } from "~/server/errors.server";
import type { Route } from "./+types/post-autosave";

const discardTarget = z.union([z.object({ postId: z.uuid() }), z.object({ category: z.enum(CATEGORIES) })]);

/**
 * POST /api/posts/autosave — the editor's unsaved text (form data: postId in edit mode, category,
 * title, excerpt, content, featuredImageUrl, baseVersion; intent=discard drops it). Sent by fetch
 * and, when the tab is hidden, by navigator.sendBeacon. Answers { savedAt }.
 */
export async function action({ request }: Route.ActionArgs) {
  try {
    const user = await requireSessionUser(request);
    const form = await readForm(request);
    const fields = Object.fromEntries(
      [...form.entries()].filter((entry): entry is [string, string] => typeof entry[1] === "string" && entry[1] !== ""),
    );
    if (fields.intent === "discard") {
      const target = discardTarget.safeParse(fields);
      if (!target.success) throw new ValidationError("Say which autosave to discard.");
      await discardAutosave(getDb(), user.id, target.data);
      return Response.json({ discarded: true });
    }
    const { savedAt } = await saveAutosave(getDb(), user, fields);
    return Response.json({ savedAt: savedAt.toISOString() }, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    const { status, body } = errorBody(error);
    return Response.json(body, { status });
  }
}
