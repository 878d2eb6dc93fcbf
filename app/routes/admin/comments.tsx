import { z } from "zod";
import { ActionStatus } from "~/components/admin-list";
import { handleAdminForm } from "~/features/admin/admin-form.server";
import { requireArea } from "~/features/auth/guards.server";
import {
  BlockList,
  CommentSettingsForm,
  ModeratedCommentItem,
  QueueTabs,
  QUEUE_LABELS,
  TrustedCommenters,
} from "~/features/comments/comment-admin";
import {
  addCommentBlock,
  blockCommentAuthor,
  deleteComment,
  editComment,
  listCommentBlocks,
  listCommentQueue,
  listTrustedCommenters,
  moderateComment,
  readCommentSettings,
  removeCommentBlock,
  replyAsAuthor,
  saveCommentSettings,
  setPostCommentsClosed,
  trustCommentAuthor,
  untrustCommentAuthor,
} from "~/features/comments/comments.server";
import { emailSchema } from "~/lib/email";
import { isMailConfigured } from "~/server/mail-settings.server";
import { publicSiteUrl } from "~/features/settings/site-url.server";
import { seoContext, seoMeta } from "~/lib/seo";
import { getDb } from "~/server/db/client.server";
import { COMMENT_BLOCK_KINDS, COMMENT_STATES } from "~/server/db/schema.server";
import { parseOrThrow } from "~/server/errors.server";
import { withPageFailures } from "~/server/failure-reply.server";
import type { Route } from "./+types/comments";

export function meta({ matches }: Route.MetaArgs) {
  return seoMeta(seoContext(matches), {
    title: "Comments — Admin",
    description: "Moderate readers' comments.",
    path: "/admin/comments",
    noindex: true,
  });
}

const queueSchema = z.enum(COMMENT_STATES).catch("pending");
const idSchema = z.object({ id: z.uuid("Unknown comment") });
const emailFieldSchema = z.object({ email: emailSchema });
const blockSchema = z.object({ kind: z.enum(COMMENT_BLOCK_KINDS), value: z.string().max(200) });

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireArea(request, "comments");
  const queue = queueSchema.parse(new URL(request.url).searchParams.get("queue") ?? "pending");
  const db = getDb();
  const [list, settings, blocks, trusted, mailConfigured] = await withPageFailures(() =>
    Promise.all([
      listCommentQueue(db, user, queue),
      readCommentSettings(db),
      listCommentBlocks(db, user),
      listTrustedCommenters(db, user),
      isMailConfigured(db),
    ]),
  );
  return { queue, ...list, settings, blocks, trusted, mailConfigured };
}

const done = (message: string) => ({ ok: true as const, message });

export async function action({ request }: Route.ActionArgs) {
  return handleAdminForm(request, "comments", {
    approve: async ({ db, actor, form }) => (
      await moderateComment(db, actor, parseOrThrow(idSchema, form).id, "approved"),
      done("Comment approved.")
    ),
    spam: async ({ db, actor, form }) => (
      await moderateComment(db, actor, parseOrThrow(idSchema, form).id, "spam"),
      done("Comment marked as spam.")
    ),
    delete: async ({ db, actor, form }) => (await deleteComment(db, actor, parseOrThrow(idSchema, form).id), done("Comment deleted.")),
    "block-email": async ({ db, actor, form }) => (
      await blockCommentAuthor(db, actor, parseOrThrow(idSchema, form).id, "email"),
      done("Email blocked; the comment is spam.")
    ),
    "block-ip": async ({ db, actor, form }) => (
      await blockCommentAuthor(db, actor, parseOrThrow(idSchema, form).id, "ip"),
      done("IP blocked; the comment is spam.")
    ),
    edit: async ({ db, actor, form }) => (
      await editComment(db, actor, parseOrThrow(idSchema, form).id, form, await publicSiteUrl()),
      done("Comment saved.")
    ),
    reply: async ({ db, actor, form }) => (
      await replyAsAuthor(db, actor, parseOrThrow(idSchema, form).id, form, await publicSiteUrl()),
      done("Reply published.")
    ),
    trust: async ({ db, actor, form }) => {
      const email = await trustCommentAuthor(db, actor, parseOrThrow(idSchema, form).id);
      return done(`Comments from ${email} are published without moderation from now on.`);
    },
    untrust: async ({ db, actor, form }) => {
      const { email } = parseOrThrow(emailFieldSchema, form);
      await untrustCommentAuthor(db, actor, email);
      return done(`Comments from ${email} wait for moderation again.`);
    },
    "close-post": async ({ db, actor, form }) => {
      const { postId, closed } = parseOrThrow(z.object({ postId: z.uuid("Unknown post"), closed: z.string().optional() }), form);
      await setPostCommentsClosed(db, actor, postId, closed === "on");
      return done(closed === "on" ? "Comments are off for this post." : "Comments are on for this post.");
    },
    settings: async ({ db, actor, form }) => {
      await saveCommentSettings(db, actor, { ...form, enabled: form.enabled === "on", newestFirst: form.newestFirst === "on" });
      return done("Settings saved.");
    },
    block: async ({ db, actor, form }) => {
      const { kind, value } = parseOrThrow(blockSchema, form);
      await addCommentBlock(db, actor, kind, value);
      return done("Added to the block list.");
    },
    unblock: async ({ db, actor, form }) => {
      const { kind, value } = parseOrThrow(blockSchema, form);
      await removeCommentBlock(db, actor, kind, value);
      return done("Removed from the block list.");
    },
  });
}

export default function AdminComments({ loaderData, actionData }: Route.ComponentProps) {
  const { queue, comments, counts, settings, blocks, trusted, mailConfigured } = loaderData;
  return (
    <section className="max-w-5xl">
      <h1 className="text-3xl font-bold">Comments</h1>
      <QueueTabs queue={queue} counts={counts} />
      <ActionStatus result={actionData} />
      <h2 className="sr-only">{QUEUE_LABELS[queue]} comments</h2>
      {comments.length === 0 ? <p className="mt-4 text-muted-foreground">No {QUEUE_LABELS[queue].toLowerCase()} comments.</p> : null}
      <ul className="mt-4 space-y-3">
        {comments.map((comment) => (
          <li key={comment.id}>
            <ModeratedCommentItem comment={comment} queue={queue} />
          </li>
        ))}
      </ul>
      <div className="mt-10 grid gap-6 lg:grid-cols-2">
        <CommentSettingsForm settings={settings} />
        <BlockList blocks={blocks} />
        <TrustedCommenters people={trusted} mailConfigured={mailConfigured} />
      </div>
    </section>
  );
}
