import { data, Link } from "react-router";
import { getSessionUser } from "~/features/auth/session.server";
import { CommentForm, type CommentFieldErrors } from "~/features/comments/comments-section";
import { COMMENT_TEXTS, commentFieldsSchema } from "~/features/comments/comment-schema";
import { replyFormView, submitComment } from "~/features/comments/comments.server";
import { getVerificationConfig } from "~/features/verification/verification.server";
import { publicSiteUrl } from "~/features/settings/site-url.server";
import { postPath, parseCategory } from "~/lib/categories";
import { fieldErrorsOf } from "~/lib/field-errors";
import { STATIC_PAGE } from "~/lib/hydration";
import { getDb } from "~/server/db/client.server";
import { errorAnswer } from "~/server/errors.server";
import { withPageFailures } from "~/server/failure-reply.server";
import { readForm } from "~/server/form.server";
import { clientIp } from "~/server/request.server";
import type { Route } from "./+types/submit";

/** No React for anonymous visitors (lib/hydration.ts). */
export const handle = STATIC_PAGE;

export function meta() {
  return [{ title: "Comment" }, { name: "robots", content: "noindex" }];
}

export function headers() {
  return { "Cache-Control": "private, no-store" };
}

const pathOf = (post: { category: string; slug: string }) => {
  const category = parseCategory(post.category);
  return category ? postPath(category, post.slug) : "/";
};

/** The reply form for readers without JavaScript: /comments?post=…&replyTo=… */
export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const postId = url.searchParams.get("post");
  const replyTo = url.searchParams.get("replyTo");
  // A form post's answer draws this page too, with no reply to show.
  if (!postId || !replyTo) return { verification: getVerificationConfig(), view: null };
  const view = await withPageFailures(() => replyFormView(getDb(), postId, replyTo));
  return { verification: view.verification, view: { ...view, postPath: pathOf(view.post) } };
}

/** Every comment form posts here, with or without JavaScript; the answer is this page. */
export async function action({ request }: Route.ActionArgs) {
  const form = await withPageFailures(() => readForm(request));
  const fields = Object.fromEntries([...form.entries()].filter((entry): entry is [string, string] => typeof entry[1] === "string"));
  const values = {
    name: fields.name ?? "",
    email: fields.email ?? "",
    url: fields.url ?? "",
    body: fields.body ?? "",
    notify: fields.notify === "on",
  };
  const refused = (fieldErrors: CommentFieldErrors, formError: string | null, init: ResponseInit) =>
    data(
      {
        ok: false as const,
        values,
        fieldErrors,
        formError,
        postId: fields.postId ?? "",
        parentId: fields.parentId || null,
        stamp: fields.stamp ?? "",
      },
      init,
    );
  const user = await getSessionUser(request);
  if (!user?.canEdit) {
    const parsed = commentFieldsSchema.safeParse(values);
    if (!parsed.success) return refused(fieldErrorsOf(parsed.error), "Please correct the highlighted fields.", { status: 400 });
  }
  try {
    const db = getDb();
    const result = await submitComment(db, user, fields, clientIp(request), await publicSiteUrl(request));
    return data({
      ok: true as const,
      state: result.state,
      id: result.id,
      editToken: result.editToken,
      postTitle: result.post.title,
      postPath: pathOf(result.post),
    });
  } catch (error) {
    const { status, message, fieldErrors, headers } = errorAnswer(error);
    return refused(status === 400 ? (fieldErrors ?? {}) : {}, message, { status, headers });
  }
}

export default function CommentPage({ loaderData, actionData }: Route.ComponentProps) {
  if (actionData?.ok) {
    const published = actionData.state === "approved";
    return (
      <section className="mx-auto max-w-2xl px-4 py-16">
        <h1 className="text-3xl font-bold">Comment sent</h1>
        <p role="status" className="mt-4">
          {published ? COMMENT_TEXTS.published : COMMENT_TEXTS.held}
        </p>
        {actionData.editToken ? (
          <p className="mt-4 text-muted-foreground">
            {COMMENT_TEXTS.editWindow}{" "}
            <a
              href={`/comments/${actionData.id}/edit?token=${encodeURIComponent(actionData.editToken)}`}
              className="text-primary underline underline-offset-4"
            >
              Edit or delete your comment
            </a>
          </p>
        ) : null}
        <Link
          to={published ? `${actionData.postPath}#comment-${actionData.id}` : actionData.postPath}
          reloadDocument
          className="mt-6 inline-block text-primary underline underline-offset-4"
        >
          Back to “{actionData.postTitle}”
        </Link>
      </section>
    );
  }
  const reply = actionData && !actionData.ok ? actionData : undefined;
  const { view } = loaderData;
  return (
    <section className="mx-auto max-w-3xl px-4 py-16">
      <h1 className="text-3xl font-bold">{view ? `Reply on “${view.post.title}”` : "Your comment"}</h1>
      {view ? (
        <>
          <blockquote className="mt-6 border-l-2 pl-4">
            <p className="text-sm font-semibold">{view.parent.authorName} wrote:</p>
            <div className="comment-body mt-2 break-words" dangerouslySetInnerHTML={{ __html: view.parent.html }} />
          </blockquote>
          <Link
            to={`${view.postPath}#comment-${view.parent.id}`}
            reloadDocument
            className="mt-4 inline-block text-sm text-primary underline underline-offset-4"
          >
            Back to the post
          </Link>
        </>
      ) : null}
      {view && !view.open ? (
        <p className="mt-6">{COMMENT_TEXTS.closed}</p>
      ) : (
        <CommentForm
          postId={reply?.postId ?? view?.post.id ?? ""}
          parentId={reply ? reply.parentId : (view?.parent.id ?? null)}
          stamp={reply?.stamp ?? view?.stamp ?? ""}
          verification={loaderData.verification}
          values={reply?.values}
          fieldErrors={reply?.fieldErrors}
          formError={reply?.formError}
          replyingTo={view?.parent.authorName ?? null}
        />
      )}
    </section>
  );
}
