import { eq } from "drizzle-orm";
import { z } from "zod";
import { contactRecipient } from "~/features/contact/outbox.server";
import { readSiteSettings } from "~/features/settings/settings.server";
import { emailSiteUrl } from "~/features/settings/site-url.server";
import type { Db } from "~/server/db/client.server";
import { blogPosts, comments, ownerPages } from "~/server/db/schema.server";
import { defineMailKind } from "~/server/mail-outbox.server";
import { subjectColumns, subjectPath, subjectTitle } from "./comment-subject.server";
import { signComment } from "./comment-tokens.server";

async function commentWithPost(db: Db, id: string) {
  const [row] = await db
    .select({
      id: comments.id,
      parentId: comments.parentId,
      authorName: comments.authorName,
      authorEmail: comments.authorEmail,
      body: comments.body,
      state: comments.state,
      reason: comments.reason,
      ...subjectColumns,
    })
    .from(comments)
    .leftJoin(blogPosts, eq(blogPosts.id, comments.postId))
    .leftJoin(ownerPages, eq(ownerPages.id, comments.pageId))
    .where(eq(comments.id, id));
  return row && { ...row, postTitle: subjectTitle(row) };
}

const postUrl = (siteUrl: string, row: Parameters<typeof subjectPath>[0]) => new URL(subjectPath(row), siteUrl).href;

const oneLine = (value: string) => value.replace(/[\r\n]+/g, " ");

/**
 * The owner's email for each comment waiting for moderation, with Approve and Spam links signed for
 * that comment (each opens a confirmation page: mail scanners that follow links decide nothing).
 */
export const ownerCommentMail = Object.assign(
  defineMailKind("comments.pending", {
    label: "Comment waiting for moderation",
    schema: z.object({ commentId: z.uuid() }),
    async render({ commentId }, { db }) {
      const row = await commentWithPost(db, commentId);
      if (!row) return { skip: "Not sent: the comment was deleted." };
      if (row.state !== "pending") return { skip: "Not sent: the comment was moderated already." };
      const to = await contactRecipient(db);
      if (!to) return { skip: "Not sent: there is no owner address (CONTACT_TO or the site's contact email)." };
      const settings = await readSiteSettings(db);
      const site = emailSiteUrl(settings);
      const link = async (decision: "approve" | "spam") =>
        `${new URL("/comments/moderate", site).href}?id=${row.id}&decision=${decision}&token=${await signComment(db, decision === "approve" ? "moderate-approve" : "moderate-spam", row.id)}`;
      return {
        to,
        senderName: settings.siteName,
        subject: `New comment on “${oneLine(row.postTitle)}” from ${oneLine(row.authorName)}`,
        text: [
          `${row.authorName} <${row.authorEmail}> commented on “${row.postTitle}”:`,
          postUrl(site, row),
          "",
          row.body,
          "",
          `Waiting for moderation: ${row.reason ?? "new comment"}.`,
          "",
          `Approve: ${await link("approve")}`,
          `Spam: ${await link("spam")}`,
          `All comments: ${new URL("/admin/comments", site).href}`,
        ].join("\n"),
      };
    },
  }),
  {
    enqueueFor: async (db: Db, commentId: string) =>
      ownerCommentMail.enqueue(db, { to: await contactRecipient(db), payload: { commentId } }, { key: `comment-pending:${commentId}` }),
  },
);

/** The email telling a reader that someone answered them, with a one-click unsubscribe. */
export const replyCommentMail = defineMailKind("comments.reply", {
  label: "Reply to a comment",
  schema: z.object({ replyId: z.uuid() }),
  async render({ replyId }, { db }) {
    const reply = await commentWithPost(db, replyId);
    if (!reply?.parentId || reply.state !== "approved") return { skip: "Not sent: the reply is not published." };
    const [parent] = await db
      .select({ id: comments.id, email: comments.authorEmail, notify: comments.notifyReplies, name: comments.authorName })
      .from(comments)
      .where(eq(comments.id, reply.parentId));
    if (!parent?.notify) return { skip: "Not sent: the reader unsubscribed from replies." };
    const settings = await readSiteSettings(db);
    const site = emailSiteUrl(settings);
    const unsubscribe = `${new URL("/comments/unsubscribe", site).href}?id=${parent.id}&token=${await signComment(db, "unsubscribe", parent.id)}`;
    return {
      to: parent.email,
      senderName: settings.siteName,
      subject: `${oneLine(reply.authorName)} replied to your comment on “${oneLine(reply.postTitle)}”`,
      text: [
        `Hello ${parent.name},`,
        "",
        `${reply.authorName} replied to your comment on “${reply.postTitle}”:`,
        "",
        reply.body,
        "",
        `Read the conversation: ${postUrl(site, reply)}#comment-${reply.id}`,
        "",
        `Stop these emails: ${unsubscribe}`,
      ].join("\n"),
      headers: { "List-Unsubscribe": `<${unsubscribe}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
    };
  },
});
