import { Link } from "react-router";
import type { VerificationConfig } from "~/features/verification/verification";
import { COMMENT_TEXTS, type CommentSubjectRef } from "./comment-schema";
import { CommentForm, type CommentFieldErrors } from "./comments-section";

/** A comment just taken: published or held, with the link that edits it for a while. */
export interface SentComment {
  state: string;
  id: string;
  editToken: string;
  postTitle: string;
  postPath: string;
  /** Mail works: the reader is told a confirmation link may be on its way. */
  confirmationMailed: boolean;
}

/** A refused comment, sent back with what was typed so nothing is lost. */
export interface RefusedComment {
  values: { name: string; email: string; url: string; body: string; notify: boolean };
  fieldErrors: CommentFieldErrors;
  formError: string | null;
  subject: CommentSubjectRef | null;
  parentId: string | null;
  stamp: string;
}

/** The comment being answered, on the reply page for readers without JavaScript. */
export interface ReplyView {
  /** The post or page, with its address. */
  post: CommentSubjectRef & { title: string; path: string };
  parent: { id: string; authorName: string; html: string };
  open: boolean;
  stamp: string;
}

export function CommentSent({ sent }: { sent: SentComment }) {
  const published = sent.state === "approved";
  return (
    <section className="mx-auto max-w-2xl px-4 py-16">
      <h1 className="text-3xl font-bold">Comment sent</h1>
      <p role="status" className="mt-4">
        {published ? COMMENT_TEXTS.published : COMMENT_TEXTS.held}
      </p>
      {sent.confirmationMailed ? <p className="mt-4">{COMMENT_TEXTS.confirmationMailed}</p> : null}
      {sent.editToken ? (
        <p className="mt-4 text-muted-foreground">
          {COMMENT_TEXTS.editWindow}{" "}
          <a
            href={`/comments/${sent.id}/edit?token=${encodeURIComponent(sent.editToken)}`}
            className="text-primary underline underline-offset-4"
          >
            Edit or delete your comment
          </a>
        </p>
      ) : null}
      <Link
        to={published ? `${sent.postPath}#comment-${sent.id}` : sent.postPath}
        reloadDocument
        className="mt-6 inline-block text-primary underline underline-offset-4"
      >
        Back to “{sent.postTitle}”
      </Link>
    </section>
  );
}

/** The comment form on a page of its own: a reply to one comment, or a refused comment to correct. */
export function CommentFormPage({
  view,
  reply,
  verification,
}: {
  view: ReplyView | null;
  reply: RefusedComment | undefined;
  verification: VerificationConfig;
}) {
  const subject = reply?.subject ?? view?.post ?? null;
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
            to={`${view.post.path}#comment-${view.parent.id}`}
            reloadDocument
            className="mt-4 inline-block text-sm text-primary underline underline-offset-4"
          >
            Back to “{view.post.title}”
          </Link>
        </>
      ) : null}
      {view && !view.open ? (
        <p className="mt-6">{COMMENT_TEXTS.closed}</p>
      ) : !subject ? (
        <p role="alert" className="mt-6">
          {reply?.formError ?? COMMENT_TEXTS.closed}
        </p>
      ) : (
        <CommentForm
          subject={subject}
          parentId={reply ? reply.parentId : (view?.parent.id ?? null)}
          stamp={reply?.stamp ?? view?.stamp ?? ""}
          verification={verification}
          values={reply?.values}
          fieldErrors={reply?.fieldErrors}
          formError={reply?.formError}
          replyingTo={view?.parent.authorName ?? null}
          headingLevel={2}
        />
      )}
    </section>
  );
}
