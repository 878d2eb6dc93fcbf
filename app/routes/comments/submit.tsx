import { data } from "react-router";
import { getSessionUser } from "~/features/auth/session.server";
import { CommentFormPage, CommentSent } from "~/features/comments/comment-page";
import { commentFieldsSchema, subjectOf } from "~/features/comments/comment-schema";
import type { CommentFieldErrors } from "~/features/comments/comments-section";
import { replyFormView, submitComment } from "~/features/comments/comments.server";
import { getVerificationConfig } from "~/features/verification/verification.server";
import { publicSiteUrl } from "~/features/settings/site-url.server";
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

/** The reply form for readers without JavaScript: /comments?post=…&replyTo=… (or ?page=… for one of the owner's pages) */
export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const subject = subjectOf({ post: url.searchParams.get("post"), page: url.searchParams.get("page") });
  const replyTo = url.searchParams.get("replyTo");
  // A form post's answer draws this page too, with no reply to show.
  if (!subject || !replyTo) return { verification: getVerificationConfig(), view: null };
  const view = await withPageFailures(() => replyFormView(getDb(), subject, replyTo));
  return { verification: view.verification, view };
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
        subject: subjectOf({ post: fields.postId, page: fields.pageId }),
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
    const result = await submitComment(db, user, fields, clientIp(request), await publicSiteUrl());
    return data({
      ok: true as const,
      state: result.state,
      id: result.id,
      editToken: result.editToken,
      postTitle: result.post.title,
      postPath: result.post.path,
      confirmationMailed: result.confirmationMailed,
    });
  } catch (error) {
    const { status, message, fieldErrors, headers } = errorAnswer(error);
    return refused(status === 400 ? (fieldErrors ?? {}) : {}, message, { status, headers });
  }
}

export default function CommentPage({ loaderData, actionData }: Route.ComponentProps) {
  if (actionData?.ok) return <CommentSent sent={actionData} />;
  return (
    <CommentFormPage
      view={loaderData.view}
      reply={actionData && !actionData.ok ? actionData : undefined}
      verification={loaderData.verification}
    />
  );
}
