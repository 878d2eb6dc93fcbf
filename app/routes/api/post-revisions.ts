import { getSessionUser } from "~/features/auth/session.server";
import { listRevisions, revisionsAnswer } from "~/features/posts/write/revisions.server";
import { getDb } from "~/server/db/client.server";
import { apiFailure } from "~/server/failure-reply.server";
import type { Route } from "./+types/post-revisions";
import { requireTwoFactorForStaff } from "~/features/auth/guards.server";

/** GET /api/posts/:postId/revisions — the post's revisions, newest first (staff; listRevisions decides). */
// While the site requires 2FA of staff, a staff member without it is refused here too.
export const middleware: Route.MiddlewareFunction[] = [({ request }) => requireTwoFactorForStaff(request, "api")];

export async function loader({ request, params }: Route.LoaderArgs) {
  try {
    const user = await getSessionUser(request);
    return revisionsAnswer(await listRevisions(getDb(), user, params.postId));
  } catch (error) {
    return apiFailure(error);
  }
}
