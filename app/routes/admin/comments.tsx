import { z } from "zod";
import { ActionStatus } from "~/components/admin-list";
import { handleAdminForm } from "~/features/admin/admin-form.server";
import { requireArea } from "~/features/auth/guards.server";
import { BlockList, CommentSettingsForm, ModeratedCommentItem, QueueTabs, QUEUE_LABELS } from "~/features/comments/comment-admin";
import {
  addCommentBlock,
  blockCommentAuthor,
  deleteComment,
  editComment,
  listCommentBlocks,
  listCommentQueue,
  moderateComment,
  readCommentSettings,
  removeCommentBlock,
  replyAsAuthor,
  saveCommentSettings,
  setPostCommentsClosed,
} from "~/features/comments/comments.server";
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
const blockSchema = z.object({ kind: z.enum(COMMENT_BLOCK_KINDS), value: z.string().max(200) });

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireArea(request, "comments");
  const queue = queueSchema.parse(new URL(request.url).searchParams.get("queue") ?? "pending");
  const db = getDb();
  const [list, settings, blocks] = await withPageFailures(() =>
    Promise.all([listCommentQueue(db, user, queue), readCommentSettings(db), listCommentBlocks(db, user)]),
  );
  return { queue, ...list, settings, blocks };
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
  const { queue, comments, counts, settings, blocks } = loaderData;
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
      </div>
    </section>
  );
}
