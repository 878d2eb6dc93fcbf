import { getSessionUser } from "~/features/auth/session.server";
import { listRevisions } from "~/features/posts/write/revisions.server";
import { getDb } from "~/server/db/client.server";
import { toResponse } from "~/server/errors.server";
import type { Route } from "./+types/post-revisions";
import { requireTwoFactorForStaffApi } from "~/features/admin/two-factor-guard.server";

/** GET /api/posts/:postId/revisions — the post's revisions, newest first (staff; listRevisions decides). */
// While the site requires 2FA of staff, a staff member without it is refused here too (issue 15).
export const middleware: Route.MiddlewareFunction[] = [({ request }) => requireTwoFactorForStaffApi(request)];

export async function loader({ request, params }: Route.LoaderArgs) {
  try {
    const user = await getSessionUser(request);
    const revisions = await listRevisions(getDb(), user, params.postId);
    return Response.json(
      { revisions: revisions.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })) },
      { headers: { "Cache-Control": "private, no-store" } },
    );
  } catch (error) {
    return toResponse(error);
  }
}
