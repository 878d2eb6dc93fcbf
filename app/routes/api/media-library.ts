import { z } from "zod";
import { getSessionUser } from "~/features/auth/session.server";
import { requireTwoFactorForStaff } from "~/features/auth/guards.server";
import { MEDIA_SEARCH_MAX } from "~/features/uploads/media-library";
import { listPickableImages } from "~/features/uploads/media-library.server";
import { getDb } from "~/server/db/client.server";
import { parseOrThrow } from "~/server/errors.server";
import { apiFailure } from "~/server/failure-reply.server";
import type { Route } from "./+types/media-library";

const querySchema = z.object({
  q: z.string().max(MEDIA_SEARCH_MAX, `Search for at most ${MEDIA_SEARCH_MAX} characters.`).default(""),
});

// While the site requires 2FA of staff, a staff member without it is refused here too.
export const middleware: Route.MiddlewareFunction[] = [({ request }) => requireTwoFactorForStaff(request, "api")];

/**
 * GET /api/media?q= — the editor's "Pick from library": the newest images (or those whose name or alt
 * text holds `q`), each with its alt text. Whoever may upload images (listPickableImages decides).
 */
export async function loader({ request }: Route.LoaderArgs) {
  try {
    const user = await getSessionUser(request);
    const { q } = parseOrThrow(querySchema, { q: new URL(request.url).searchParams.get("q") ?? undefined });
    const images = await listPickableImages(getDb(), user, { q });
    return Response.json({ images }, { headers: { "Cache-Control": "private, no-store" } });
  } catch (error) {
    return apiFailure(error);
  }
}
