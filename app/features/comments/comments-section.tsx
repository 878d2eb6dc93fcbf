import { useEffect, useRef } from "react";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Textarea } from "~/components/ui/textarea";
import type { VerificationConfig } from "~/features/verification/verification";
import { verificationAttributes } from "~/features/verification/verification-widget";
import { longDate } from "~/lib/dates";
import { errorIdOf } from "~/lib/dom";
import { AuthorAvatar } from "./author-avatar";
import { enhanceCommentForm } from "./comment-form-behavior";
import { COMMENT_FORM_ATTRIBUTE, COMMENT_VERIFICATION_ATTRIBUTE } from "./comment-form-dom";
import {
  COMMENT_HONEYPOT,
  COMMENT_LIMITS,
  COMMENT_TEXTS,
  MENTION_VERBS,
  SUBJECT_FIELD,
  SUBJECT_PARAM,
  type CommentSubjectRef,
  type CommentView,
  type MentionView,
} from "./comment-schema";

export interface CommentsSectionProps {
  /** The post or page the comments are on. */
  subject: CommentSubjectRef;
  open: boolean;
  count: number;
  comments: CommentView[];
  /** Likes, reposts and mentions from other sites (Webmention). */
  mentions: MentionView[];
  newestFirst: boolean;
  stamp: string;
  verification: VerificationConfig;
}

export type CommentFormValues = { name: string; email: string; url: string; body: string; notify: boolean };
export type CommentFieldErrors = Partial<Record<"name" | "email" | "url" | "body", string[]>>;

function CommentBody({ comment, subject, open }: { comment: CommentView; subject: CommentSubjectRef; open: boolean }) {
  return (
    <article id={`comment-${comment.id}`} className="h-entry p-comment scroll-mt-20" aria-labelledby={`comment-${comment.id}-author`}>
      <header className="flex flex-wrap items-baseline gap-x-2 gap-y-1 text-sm">
        <AuthorAvatar avatar={comment.avatar} remote={Boolean(comment.source)} name={comment.authorName} />
        <span id={`comment-${comment.id}-author`} className="p-author h-card font-semibold break-words">
          {comment.authorUrl ? (
            <a
              href={comment.authorUrl}
              rel="nofollow ugc noopener noreferrer"
              className="u-url p-name text-primary underline underline-offset-4"
            >
              {comment.authorName}
            </a>
          ) : (
            <span className="p-name">{comment.authorName}</span>
          )}
        </span>
        {comment.staff ? <Badge variant="secondary">{COMMENT_TEXTS.author}</Badge> : null}
        <a href={`#comment-${comment.id}`} className="u-url text-muted-foreground hover:underline">
          <time className="dt-published" dateTime={comment.createdAt}>
            {longDate(comment.createdAt)}
          </time>
        </a>
        {comment.replyingTo ? <span className="text-muted-foreground">replying to {comment.replyingTo}</span> : null}
        {comment.fediverseHandle ? <span className="text-muted-foreground break-all">{`@${comment.fediverseHandle}`}</span> : null}
        {comment.source ? (
          <a href={comment.source} rel="nofollow ugc noopener noreferrer" className="text-muted-foreground underline underline-offset-4">
            {comment.fediverseHandle ? "on the fediverse" : "on their site"}
          </a>
        ) : null}
      </header>
      <div className="e-content comment-body mt-2 break-words" dangerouslySetInnerHTML={{ __html: comment.html }} />
      {open ? (
        <a
          href={`/comments?${SUBJECT_PARAM[subject.kind]}=${subject.id}&replyTo=${comment.id}#comment-form`}
          className="mt-1 inline-block text-sm text-primary underline underline-offset-4"
          aria-label={`Reply to ${comment.authorName}`}
        >
          Reply
        </a>
      ) : null}
    </article>
  );
}

/** The approved comments of a post or page, two levels deep, and the form to add one. Drawn on the server; no JavaScript needed. */
export function CommentsSection(props: CommentsSectionProps) {
  const { subject, open, count, comments } = props;
  return (
    <section id="comments" aria-labelledby="comments-title" className="mx-auto max-w-3xl px-4 pb-16">
      <h2 id="comments-title" className="text-2xl font-semibold">
        {count === 0 ? "Comments" : `${count} comment${count === 1 ? "" : "s"}`}
      </h2>
      {comments.length > 0 ? (
        <ol className="mt-6 space-y-8">
          {comments.map((comment) => (
            <li key={comment.id}>
              <CommentBody comment={comment} subject={subject} open={open} />
              {comment.replies.length > 0 ? (
                <ol className="mt-4 space-y-6 border-l-2 pl-4 sm:pl-6" aria-label={`Replies to ${comment.authorName}`}>
                  {comment.replies.map((reply) => (
                    <li key={reply.id}>
                      <CommentBody comment={reply} subject={subject} open={open} />
                    </li>
                  ))}
                </ol>
              ) : null}
            </li>
          ))}
        </ol>
      ) : open ? (
        <p className="mt-4 text-muted-foreground">No comments yet. Be the first to share your thoughts.</p>
      ) : null}
      {props.mentions.length > 0 ? <MentionList mentions={props.mentions} /> : null}
      {open ? (
        <CommentForm subject={subject} parentId={null} stamp={props.stamp} verification={props.verification} />
      ) : (
        <p className="mt-6 text-muted-foreground">{COMMENT_TEXTS.closed}</p>
      )}
    </section>
  );
}

/** Likes, reposts and mentions from other sites: who, what, and a link to where. */
function MentionList({ mentions }: { mentions: MentionView[] }) {
  return (
    <>
      <h3 id="mentions-title" className="mt-10 text-xl font-semibold">
        Mentions
      </h3>
      <ul aria-labelledby="mentions-title" className="mt-4 space-y-2">
        {mentions.map((mention) => (
          <li key={mention.id} className="h-cite u-comment break-words">
            <span className="p-author h-card font-semibold">
              {mention.authorUrl ? (
                <a
                  href={mention.authorUrl}
                  rel="nofollow ugc noopener noreferrer"
                  className="u-url p-name text-primary underline underline-offset-4"
                >
                  {mention.authorName}
                </a>
              ) : (
                <span className="p-name">{mention.authorName}</span>
              )}
            </span>{" "}
            <a
              href={mention.source}
              rel="nofollow ugc noopener noreferrer"
              className="u-url text-muted-foreground underline underline-offset-4"
            >
              {MENTION_VERBS[mention.kind]}
            </a>{" "}
            <time className="dt-published text-sm text-muted-foreground" dateTime={mention.createdAt}>
              {longDate(mention.createdAt)}
            </time>
          </li>
        ))}
      </ul>
    </>
  );
}

function Field({
  id,
  label,
  error,
  hint,
  children,
}: {
  id: string;
  label: string;
  error: string | undefined;
  hint?: string;
  children: (props: { id: string; "aria-invalid"?: boolean; "aria-describedby"?: string }) => React.ReactNode;
}) {
  const hintId = `${id}-hint`;
  const describedBy = [error ? errorIdOf(id) : null, hint ? hintId : null].filter(Boolean).join(" ");
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      {children({ id, ...(error ? { "aria-invalid": true } : {}), ...(describedBy ? { "aria-describedby": describedBy } : {}) })}
      {hint ? (
        <p id={hintId} className="text-sm text-muted-foreground">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorIdOf(id)} className="text-sm font-medium text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The comment form: a plain form post to /comments; the enhancement adds the proof of work when the reader starts typing. */
export function CommentForm({
  subject,
  parentId,
  stamp,
  verification,
  values,
  fieldErrors,
  formError,
  replyingTo,
  headingLevel = 3,
}: {
  subject: CommentSubjectRef;
  parentId: string | null;
  stamp: string;
  verification: VerificationConfig;
  values?: CommentFormValues;
  fieldErrors?: CommentFieldErrors;
  formError?: string | null;
  replyingTo?: string | null;
  /** 3 under a post's "Comments" heading; 2 on a page of its own, right under the page's h1. */
  headingLevel?: 2 | 3;
}) {
  const ref = useRef<HTMLFormElement>(null);
  const Heading = headingLevel === 2 ? "h2" : "h3";
  useEffect(() => (ref.current ? enhanceCommentForm(ref.current) : undefined), []);
  const error = (field: keyof CommentFieldErrors) => fieldErrors?.[field]?.[0];
  return (
    <form
      ref={ref}
      id="comment-form"
      method="post"
      action="/comments"
      noValidate
      aria-labelledby="comment-form-title"
      className="mt-10 space-y-5 rounded-lg border p-4 sm:p-6"
      {...{ [COMMENT_FORM_ATTRIBUTE]: "" }}
      {...verificationAttributes(verification)}
    >
      <Heading id="comment-form-title" className="text-xl font-semibold">
        {replyingTo ? `Reply to ${replyingTo}` : "Leave a comment"}
      </Heading>
      {formError ? (
        <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/5 p-3 text-sm font-medium text-destructive">
          {formError}
        </p>
      ) : null}
      <input type="hidden" name={SUBJECT_FIELD[subject.kind]} value={subject.id} />
      <input type="hidden" name="parentId" value={parentId ?? ""} />
      <input type="hidden" name="stamp" value={stamp} />
      {/* Honeypot: hidden from people and assistive technology; a form that fills it is dropped. */}
      <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
        <label htmlFor="comment-fax">Fax</label>
        <input id="comment-fax" type="text" name={COMMENT_HONEYPOT} tabIndex={-1} autoComplete="off" defaultValue="" />
      </div>
      <Field id="comment-body" label="Comment" error={error("body")} hint="Markdown: *emphasis*, **bold**, [links](https://…) and `code`.">
        {(p) => <Textarea {...p} name="body" rows={5} required maxLength={COMMENT_LIMITS.body} defaultValue={values?.body} />}
      </Field>
      <div className="grid gap-5 sm:grid-cols-2">
        <Field id="comment-name" label="Name" error={error("name")}>
          {(p) => (
            <Input
              {...p}
              name="name"
              type="text"
              autoComplete="name"
              required
              maxLength={COMMENT_LIMITS.name}
              defaultValue={values?.name}
            />
          )}
        </Field>
        <Field id="comment-email" label="Email" error={error("email")} hint="Never shown.">
          {(p) => <Input {...p} name="email" type="email" autoComplete="email" required defaultValue={values?.email} />}
        </Field>
      </div>
      <Field id="comment-url" label="Website (optional)" error={error("url")}>
        {(p) => <Input {...p} name="url" type="url" autoComplete="url" maxLength={COMMENT_LIMITS.url} defaultValue={values?.url} />}
      </Field>
      <div className="flex items-start gap-2">
        <input id="comment-notify" type="checkbox" name="notify" defaultChecked={values?.notify} className="mt-1 size-4" />
        <Label htmlFor="comment-notify" className="font-normal">
          Email me when someone replies
        </Label>
      </div>
      <div {...{ [COMMENT_VERIFICATION_ATTRIBUTE]: "" }} data-testid="comment-verification" />
      <p className="text-sm text-muted-foreground">New comments appear once they are approved.</p>
      <Button type="submit">Post comment</Button>
    </form>
  );
}
