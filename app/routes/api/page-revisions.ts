import { requireTwoFactorForStaff } from "~/features/auth/guards.server";
import { getSessionUser } from "~/features/auth/session.server";
import { listPageRevisions } from "~/features/owner-pages/owner-pages.server";
import { revisionsAnswer } from "~/features/posts/write/revisions.server";
import { getDb } from "~/server/db/client.server";
import { apiFailure } from "~/server/failure-reply.server";
import type { Route } from "./+types/page-revisions";

// While the site requires 2FA of staff, a staff member without it is refused here too.
export const middleware: Route.MiddlewareFunction[] = [({ request }) => requireTwoFactorForStaff(request, "api")];

/** GET /api/pages/:pageId/revisions — the page's revisions, newest first, in the posts' dialog's shape. */
export async function loader({ request, params }: Route.LoaderArgs) {
  try {
    const user = await getSessionUser(request);
    return revisionsAnswer(await listPageRevisions(getDb(), user, params.pageId));
  } catch (error) {
    return apiFailure(error);
  }
}
