import { data, Link } from "react-router";
import { ActionMessage } from "~/components/email-link-page";
import { Button } from "~/components/ui/button";
import { Label } from "~/components/ui/label";
import { Textarea } from "~/components/ui/textarea";
import { COMMENT_LIMITS } from "~/features/comments/comment-schema";
import { commentForOwnEdit, deleteOwnComment, editOwnComment } from "~/features/comments/comments.server";
import { publicSiteUrl } from "~/features/settings/site-url.server";
import { STATIC_PAGE } from "~/lib/hydration";
import { getDb } from "~/server/db/client.server";
import { errorAnswer } from "~/server/errors.server";
import { withPageFailures } from "~/server/failure-reply.server";
import { readForm } from "~/server/form.server";
import type { Route } from "./+types/edit";

/** No React for anonymous visitors (lib/hydration.ts). */
export const handle = STATIC_PAGE;

export function meta() {
  return [{ title: "Edit your comment" }, { name: "robots", content: "noindex" }];
}

export function headers() {
  return { "Cache-Control": "private, no-store" };
}

const tokenOf = (request: Request) => new URL(request.url).searchParams.get("token") ?? "";

/** The commenter's own edit page: the signed token from their answer page allows it for 15 minutes. */
export async function loader({ request, params }: Route.LoaderArgs) {
  const token = tokenOf(request);
  const comment = await withPageFailures(() => commentForOwnEdit(getDb(), params.id, token));
  return { ...comment, token, postPath: comment.post?.path ?? "/" };
}

export async function action({ request, params }: Route.ActionArgs) {
  const token = tokenOf(request);
  const form = await withPageFailures(() => readForm(request));
  try {
    if (form.get("intent") === "delete") {
      await deleteOwnComment(getDb(), params.id, token);
      return { ok: true as const, deleted: true, message: "Your comment was deleted." };
    }
    await editOwnComment(getDb(), params.id, token, { body: form.get("body") }, await publicSiteUrl());
    return { ok: true as const, deleted: false, message: "Your comment was saved." };
  } catch (error) {
    const { status, message, headers } = errorAnswer(error);
    return data({ ok: false as const, deleted: false, message }, { status, headers });
  }
}

export default function EditOwnComment({ loaderData, actionData }: Route.ComponentProps) {
  const action = `/comments/${loaderData.id}/edit?token=${encodeURIComponent(loaderData.token)}`;
  return (
    <section className="mx-auto max-w-2xl px-4 py-16">
      <h1 className="text-3xl font-bold">Edit your comment</h1>
      {actionData ? <ActionMessage result={actionData} /> : null}
      {actionData?.deleted ? null : (
        <>
          <form method="post" action={action} className="mt-6 space-y-4">
            <div className="grid gap-2">
              <Label htmlFor="own-comment-body">Comment</Label>
              <Textarea
                id="own-comment-body"
                name="body"
                rows={6}
                required
                maxLength={COMMENT_LIMITS.body}
                defaultValue={loaderData.body}
              />
            </div>
            <Button type="submit">Save</Button>
          </form>
          <form method="post" action={action} className="mt-4">
            <input type="hidden" name="intent" value="delete" />
            <Button type="submit" variant="destructive">
              Delete comment
            </Button>
          </form>
        </>
      )}
      <Link to={loaderData.postPath} reloadDocument className="mt-6 inline-block text-primary underline underline-offset-4">
        Back to the post
      </Link>
    </section>
  );
}
