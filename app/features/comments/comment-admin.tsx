import { Form, Link } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Textarea } from "~/components/ui/textarea";
import type { CommentBlockKind, CommentState } from "~/server/db/schema.server";
import { AuthorAvatar } from "./author-avatar";
import { COMMENT_LIMITS, type CommentSettings } from "./comment-schema";

export const QUEUE_LABELS: Record<CommentState, string> = { pending: "Pending", approved: "Approved", spam: "Spam" };

/** A comment as the moderation queue shows it. */
export interface ModeratedComment {
  id: string;
  authorName: string;
  authorEmail: string;
  authorUrl: string | null;
  staff: boolean;
  body: string;
  html: string;
  reason: string | null;
  ipAddress: string | null;
  createdAt: string | Date;
  /** Null for a comment on one of the owner's pages (its switch is in the page's editor). */
  postId: string | null;
  /** The post's or page's title and address. */
  subjectTitle: string;
  subjectPath: string;
  postClosed: boolean;
  /** The commenter opened the link emailed after a comment. */
  authorConfirmed: boolean;
  /** "Auto-approve this person": set by a moderator on a confirmed email. */
  authorTrusted: boolean;
  /** A remote author's picture (our copy's address), or null. */
  avatar: string | null;
  /** The fediverse post or Webmention source it came from (remote authors), or null. */
  source: string | null;
}

function IntentButton({
  intent,
  id,
  children,
  variant = "outline",
}: {
  intent: string;
  id: string;
  children: string;
  variant?: "outline" | "destructive" | "default";
}) {
  return (
    <Form method="post" className="inline">
      <input type="hidden" name="id" value={id} />
      <Button type="submit" name="intent" value={intent} size="sm" variant={variant}>
        {children}
      </Button>
    </Form>
  );
}

/** The queue tabs with their counts. */
export function QueueTabs({ queue, counts }: { queue: CommentState; counts: Record<CommentState, number> }) {
  return (
    <nav aria-label="Comment queues" className="mt-6 flex flex-wrap gap-2">
      {(Object.keys(QUEUE_LABELS) as CommentState[]).map((state) => (
        <Link
          key={state}
          to={`/admin/comments?queue=${state}`}
          aria-current={state === queue ? "page" : undefined}
          className={`rounded-md border px-3 py-1.5 text-sm ${state === queue ? "border-primary bg-primary text-primary-foreground" : "hover:bg-accent"}`}
        >
          {QUEUE_LABELS[state]} ({counts[state]})
        </Link>
      ))}
    </nav>
  );
}

/** One comment in a queue with every decision a moderator can take on it. */
export function ModeratedCommentItem({ comment, queue }: { comment: ModeratedComment; queue: CommentState }) {
  const path = comment.subjectPath;
  const label = `comment by ${comment.authorName}`;
  return (
    <article aria-label={label} className="rounded-lg border p-4" data-testid="moderated-comment">
      <header className="flex flex-wrap items-baseline gap-x-3 gap-y-1 text-sm">
        <AuthorAvatar avatar={comment.avatar} remote={Boolean(comment.source)} name={comment.authorName} />
        <span className="font-semibold">{comment.authorName}</span>
        {comment.staff ? <Badge variant="secondary">Author</Badge> : null}
        <span className="text-muted-foreground">{comment.authorEmail}</span>
        {comment.staff || !comment.authorEmail ? null : <AuthorStatus comment={comment} />}
        {comment.authorUrl ? <span className="break-all text-muted-foreground">{comment.authorUrl}</span> : null}
        {comment.ipAddress ? <span className="text-muted-foreground">IP {comment.ipAddress}</span> : null}
        <span className="text-muted-foreground">{new Date(comment.createdAt).toISOString().slice(0, 16).replace("T", " ")}</span>
      </header>
      <p className="mt-1 text-sm">
        On{" "}
        <Link to={path} className="text-primary underline underline-offset-4">
          {comment.subjectTitle}
        </Link>
        {comment.postClosed ? " (comments off)" : ""}
      </p>
      {comment.reason ? <p className="mt-1 text-sm text-muted-foreground">Held: {comment.reason}</p> : null}
      <div className="comment-body mt-3 break-words" dangerouslySetInnerHTML={{ __html: comment.html }} />
      <div className="mt-3 flex flex-wrap gap-2">
        {queue !== "approved" ? (
          <IntentButton intent="approve" id={comment.id} variant="default">
            Approve
          </IntentButton>
        ) : null}
        {queue !== "spam" ? (
          <IntentButton intent="spam" id={comment.id}>
            Spam
          </IntentButton>
        ) : null}
        {!comment.staff && comment.authorConfirmed && !comment.authorTrusted && queue !== "spam" ? (
          <IntentButton intent="trust" id={comment.id}>
            Auto-approve this person
          </IntentButton>
        ) : null}
        {comment.authorTrusted ? <StopAutoApproving email={comment.authorEmail} /> : null}
        <IntentButton intent="block-email" id={comment.id}>
          Block email
        </IntentButton>
        {comment.ipAddress ? (
          <IntentButton intent="block-ip" id={comment.id}>
            Block IP
          </IntentButton>
        ) : null}
        {comment.postId ? (
          <Form method="post" className="inline">
            <input type="hidden" name="postId" value={comment.postId} />
            <input type="hidden" name="closed" value={comment.postClosed ? "" : "on"} />
            <Button type="submit" name="intent" value="close-post" size="sm" variant="outline">
              {comment.postClosed ? "Turn comments on for this post" : "Turn comments off for this post"}
            </Button>
          </Form>
        ) : null}
        <IntentButton intent="delete" id={comment.id} variant="destructive">
          Delete
        </IntentButton>
      </div>
      <details className="mt-3">
        <summary className="cursor-pointer text-sm text-primary">Reply as the author</summary>
        <Form method="post" className="mt-2 space-y-2">
          <input type="hidden" name="id" value={comment.id} />
          <Label htmlFor={`reply-${comment.id}`}>Your reply</Label>
          <Textarea id={`reply-${comment.id}`} name="body" rows={3} required maxLength={COMMENT_LIMITS.body} />
          <Button type="submit" name="intent" value="reply" size="sm">
            Publish reply
          </Button>
        </Form>
      </details>
      <details className="mt-2">
        <summary className="cursor-pointer text-sm text-primary">Edit</summary>
        <Form method="post" className="mt-2 space-y-2">
          <input type="hidden" name="id" value={comment.id} />
          <Label htmlFor={`edit-${comment.id}`}>Comment text</Label>
          <Textarea id={`edit-${comment.id}`} name="body" rows={4} required maxLength={COMMENT_LIMITS.body} defaultValue={comment.body} />
          <Button type="submit" name="intent" value="edit" size="sm">
            Save
          </Button>
        </Form>
      </details>
    </article>
  );
}

/** Whether the commenter's email is confirmed, and whether the owner trusts it. */
function AuthorStatus({ comment }: { comment: Pick<ModeratedComment, "authorConfirmed" | "authorTrusted"> }) {
  if (comment.authorTrusted) return <Badge variant="secondary">Auto-approved</Badge>;
  return comment.authorConfirmed ? <Badge variant="outline">Email confirmed</Badge> : <Badge variant="outline">Email not confirmed</Badge>;
}

function StopAutoApproving({ email }: { email: string }) {
  return (
    <Form method="post" className="inline">
      <input type="hidden" name="email" value={email} />
      <Button type="submit" name="intent" value="untrust" size="sm" variant="outline" aria-label={`Stop auto-approving ${email}`}>
        Stop auto-approving
      </Button>
    </Form>
  );
}

/**
 * The people whose comments are published without waiting (each confirmed their email), and what
 * confirmation needs: mail.
 */
export function TrustedCommenters({ people, mailConfigured }: { people: { email: string }[]; mailConfigured: boolean }) {
  return (
    <section aria-labelledby="trusted-title" className="space-y-4 rounded-lg border p-4">
      <h2 id="trusted-title" className="text-xl font-semibold">
        Auto-approved people
      </h2>
      <p className="text-sm text-muted-foreground">
        A reader confirms their email through a link sent after their comment; then “Auto-approve this person” on one of their comments
        publishes their next ones without waiting. The block list, the spam filter, the link limit and the security check still apply.
      </p>
      {mailConfigured ? null : (
        <p role="note" className="rounded-md border border-amber-400 p-3 text-sm">
          Confirming a reader’s email needs mail, which is not set up: until an administrator sets it up in{" "}
          <Link to="/admin/email" className="text-primary underline underline-offset-4">
            Settings → Email
          </Link>
          , no new person can be auto-approved and every reader’s comment waits for moderation.
        </p>
      )}
      {people.length > 0 ? (
        <ul className="space-y-1">
          {people.map((person) => (
            <li key={person.email} className="flex flex-wrap items-center gap-2 text-sm">
              <span className="break-all">{person.email}</span>
              <StopAutoApproving email={person.email} />
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm">Nobody yet.</p>
      )}
    </section>
  );
}

/** Site-wide switches: comments on or off, closing after N days, the link limit and the order. */
export function CommentSettingsForm({ settings }: { settings: CommentSettings }) {
  return (
    <Form method="post" className="space-y-4 rounded-lg border p-4">
      <h2 className="text-xl font-semibold">Settings</h2>
      <div className="flex items-center gap-2">
        <input id="comments-enabled" type="checkbox" name="enabled" defaultChecked={settings.enabled} className="size-4" />
        <Label htmlFor="comments-enabled">Comments on (site-wide)</Label>
      </div>
      <div className="flex items-center gap-2">
        <input id="comments-newest" type="checkbox" name="newestFirst" defaultChecked={settings.newestFirst} className="size-4" />
        <Label htmlFor="comments-newest">Newest comments first</Label>
      </div>
      <div className="grid gap-2 sm:max-w-xs">
        <Label htmlFor="comments-close-after">Close comments on posts older than (days, 0 = never)</Label>
        <Input id="comments-close-after" name="closeAfterDays" type="number" min={0} defaultValue={settings.closeAfterDays} />
      </div>
      <div className="grid gap-2 sm:max-w-xs">
        <Label htmlFor="comments-link-limit">Hold comments with more links than</Label>
        <Input id="comments-link-limit" name="linkLimit" type="number" min={0} defaultValue={settings.linkLimit} />
      </div>
      <Button type="submit" name="intent" value="settings">
        Save settings
      </Button>
    </Form>
  );
}

/** The owner's block list: emails or domains, IPs or ranges, keywords and hosts. */
export function BlockList({ blocks }: { blocks: { kind: CommentBlockKind; value: string }[] }) {
  return (
    <section aria-labelledby="block-list-title" className="space-y-4 rounded-lg border p-4">
      <h2 id="block-list-title" className="text-xl font-semibold">
        Block list
      </h2>
      <p className="text-sm text-muted-foreground">Comments matching an entry go straight to Spam.</p>
      {blocks.length > 0 ? (
        <ul className="space-y-1">
          {blocks.map((block) => (
            <li key={`${block.kind}:${block.value}`} className="flex flex-wrap items-center gap-2 text-sm">
              <Badge variant="outline">{block.kind}</Badge>
              <span className="break-all">{block.value}</span>
              <Form method="post" className="inline">
                <input type="hidden" name="kind" value={block.kind} />
                <input type="hidden" name="value" value={block.value} />
                <Button
                  type="submit"
                  name="intent"
                  value="unblock"
                  size="sm"
                  variant="ghost"
                  aria-label={`Remove ${block.kind} ${block.value}`}
                >
                  Remove
                </Button>
              </Form>
            </li>
          ))}
        </ul>
      ) : null}
      <Form method="post" className="flex flex-wrap items-end gap-2">
        <div className="grid gap-2">
          <Label htmlFor="block-kind">Kind</Label>
          <select id="block-kind" name="kind" className="h-9 rounded-md border bg-background px-2 text-sm">
            <option value="keyword">Keyword</option>
            <option value="host">Host</option>
            <option value="email">Email or domain</option>
            <option value="ip">IP or range</option>
            <option value="actor">Fediverse account (actor address)</option>
          </select>
        </div>
        <div className="grid gap-2">
          <Label htmlFor="block-value">Value</Label>
          <Input id="block-value" name="value" required maxLength={200} />
        </div>
        <Button type="submit" name="intent" value="block" variant="outline">
          Add
        </Button>
      </Form>
    </section>
  );
}
