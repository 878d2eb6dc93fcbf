import { z } from "zod";
import { requireSessionUser } from "~/features/auth/session.server";
import { listRevisions } from "~/features/posts/revisions.server";
import { getDb } from "~/server/db/client.server";
import { errorBody } from "~/server/errors.server";
import type { Route } from "./+types/post-revisions";

/** GET /api/posts/:postId/revisions — the post's revisions, newest first (staff; listRevisions decides). */
export async function loader({ request, params }: Route.LoaderArgs) {
  try {
    const user = await requireSessionUser(request);
    const postId = z.uuid().safeParse(params.postId);
    if (!postId.success) return Response.json({ error: "That post no longer exists." }, { status: 404 });
    const revisions = await listRevisions(getDb(), user, postId.data);
    return Response.json(
      { revisions: revisions.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })) },
      { headers: { "Cache-Control": "private, no-store" } },
    );
  } catch (error) {
    const { status, body } = errorBody(error);
    return Response.json(body, { status });
  }
}
