import { and, eq, like } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createPost } from "~/features/posts/write/posts.server";
import { comments, mailOutbox, rateLimits } from "~/server/db/schema.server";
import { ForbiddenError, NotFoundError } from "~/server/errors.server";
import { MailOutbox } from "~/server/mail-outbox.server";
import { easyVerificationToken, waitFor } from "../../../tests/helpers/contact";
import { describeEachDatabase } from "../../../tests/helpers/databases";
import { makeUser } from "../../../tests/helpers/factories";
import { parseMail, readableMail, type ReceivedMail } from "../../../tests/helpers/smtp";
import { mailsTo, useSmtpServer } from "../../../tests/helpers/smtp-suite";
import { makeStamp } from "./comment-tokens.server";
import {
  commentForOwnEdit,
  deleteOwnComment,
  moderateBySignedLink,
  moderateComment,
  commentThread,
  replyAsAuthor,
  replyFormView,
  saveCommentSettings,
  listTrustedCommenters,
  submitComment,
  trustCommentAuthor,
  TRUST_NEEDS_CONFIRMATION,
  unsubscribeReplies,
  untrustCommentAuthor,
} from "./comments.server";
import { COMMENT_CONFIRM_INVALID, confirmCommentEmail } from "./comment-authors.server";

const SITE = "https://site.example";

describe("comments", () => {
  const smtp = useSmtpServer();

  describeEachDatabase("comments", (ctx) => {
    let n = 0;
    const ip = () => `10.30.${ctx.kind === "pglite" ? 1 : 2}.${++n}`;
    const drain = () => new MailOutbox({ db: () => ctx.db }).drain();
    const admin = async () => {
      const user = await makeUser(ctx.db, { role: "admin" });
      return { ...user.actor, email: user.email, name: "Owner" };
    };
    const publish = async () =>
      createPost(ctx.db, await admin(), {
        title: `Post ${++n} ${Date.now()}`,
        content: "Body.",
        excerpt: "Ex.",
        category: "Fun",
        published: true,
      });
    const commentRow = async (id: string) =>
      (await ctx.db.select({ state: comments.state, reason: comments.reason }).from(comments).where(eq(comments.id, id)))[0];
    const commentState = async (id: string) => (await commentRow(id))?.state;
    const commentReason = async (id: string) => (await commentRow(id))?.reason;
    /** The per-email limit (4 comments in 10 minutes) is not what these tests check. */
    const forgetEmailLimits = () => ctx.db.delete(rateLimits).where(like(rateLimits.key, "comment:email:%"));
    /** A reader's form post, sent as if the page was drawn a minute ago. */
    const comment = async (postId: string, fields: Record<string, string>) =>
      submitComment(
        ctx.db,
        null,
        {
          postId,
          name: "Reader",
          body: "Hello",
          stamp: await makeStamp(ctx.db, Date.now() - 60_000),
          verificationToken: await easyVerificationToken(ctx.db),
          ...fields,
        },
        ip(),
        SITE,
      );

    it("a reply page for an address that names no post or comment is a 404, never a database error", async () => {
      const post = await publish();
      for (const [postId, parentId] of [
        ["x", "y"],
        [post.id, "y"],
        [post.id, crypto.randomUUID()],
        [crypto.randomUUID(), crypto.randomUUID()],
      ] as const)
        await expect(replyFormView(ctx.db, { kind: "post", id: postId }, parentId)).rejects.toBeInstanceOf(NotFoundError);
    });

    it("post → held → approved → shown → a reply mails the reader once → unsubscribe", async () => {
      const post = await publish();
      const reader = `reader-${Date.now()}@comments.example`;
      const first = await comment(post.id, { email: reader, body: "First *thoughts* with [a link](https://docs.example)", notify: "on" });
      expect(first.state).toBe("pending");
      expect((await commentThread(ctx.db, { kind: "post", id: post.id }, false)).count).toBe(0);

      // The owner's email carries signed Approve and Spam links; a tampered one does nothing.
      const [ownerMail] = await ctx.db
        .select({ recipient: mailOutbox.recipient })
        .from(mailOutbox)
        .where(eq(mailOutbox.dedupeKey, `comment-pending:${first.id}`));
      expect(ownerMail).toBeDefined();
      await expect(moderateBySignedLink(ctx.db, first.id, "approve", "forged")).rejects.toThrow(/not valid/);
      await moderateComment(ctx.db, await admin(), first.id, "approved");

      const shown = await commentThread(ctx.db, { kind: "post", id: post.id }, false);
      expect(shown.count).toBe(1);
      expect(shown.comments[0]?.html).toBe(
        '<p>First <em>thoughts</em> with <a href="https://docs.example/" rel="nofollow ugc noopener noreferrer">a link</a></p>',
      );

      // Approved once is not trusted: the next comment waits too, until the reader confirms their email
      // (the link mailed after their comment) and the owner chooses "Auto-approve this person".
      const waiting = await comment(post.id, { email: reader, body: "And one more thing." });
      expect(waiting).toMatchObject({ state: "pending", confirmationMailed: true });
      expect(await commentReason(waiting.id)).toBe("Not set to auto-approve (approved before)");
      await expect(trustCommentAuthor(ctx.db, await admin(), waiting.id)).rejects.toThrow(TRUST_NEEDS_CONFIRMATION);
      await drain();
      const confirmMails = await waitFor(() => mailsTo(smtp, reader).length >= 1 && mailsTo(smtp, reader), 5_000, "the confirmation");
      // One link per day, however many comments: the first comment queued it, the second did not.
      expect(confirmMails).toHaveLength(1);
      expect(parseMail(confirmMails[0] as ReceivedMail).subject).toMatch(/^Confirm your email for comments on /);
      const link = new URL(/(https?:\/\/\S+\/comments\/confirm\?token=\S+)/.exec(readableMail(confirmMails[0] as ReceivedMail))?.[1] ?? "");
      const token = link.searchParams.get("token") ?? "";
      await expect(confirmCommentEmail(ctx.db, `${token}x`, ip())).rejects.toThrow(COMMENT_CONFIRM_INVALID);
      expect(await confirmCommentEmail(ctx.db, token, ip())).toBe(reader);
      // Single use.
      await expect(confirmCommentEmail(ctx.db, token, ip())).rejects.toThrow(COMMENT_CONFIRM_INVALID);
      expect(await trustCommentAuthor(ctx.db, await admin(), waiting.id)).toBe(reader);
      expect(await commentState(waiting.id)).toBe("approved");
      expect((await listTrustedCommenters(ctx.db, await admin())).map((p) => p.email)).toContain(reader);

      // Trusted: published at once, still under the filters (too many links wait).
      await forgetEmailLimits();
      const second = await comment(post.id, { email: reader, body: "And one more thing, again." });
      expect(second.state).toBe("approved");
      const linky = await comment(post.id, { email: reader, body: "https://a.example https://b.example https://c.example" });
      expect(linky.state).toBe("pending");
      await moderateComment(ctx.db, await admin(), linky.id, "approved");

      // The owner replies as the author: marked, published, and the reader is told once.
      await replyAsAuthor(ctx.db, await admin(), first.id, { body: "Thanks for reading!" }, SITE);
      const thread = await commentThread(ctx.db, { kind: "post", id: post.id }, false);
      expect(thread.comments[0]?.replies.map((r) => [r.staff, r.html])).toEqual([[true, "<p>Thanks for reading!</p>"]]);
      // A reply to the reply is shown on the second level, saying whom it answers.
      const replyId = thread.comments[0]?.replies[0]?.id ?? "";
      const deeper = await comment(post.id, { email: reader, body: "You're welcome", parentId: replyId });
      expect(deeper.state).toBe("approved");
      const deep = (await commentThread(ctx.db, { kind: "post", id: post.id }, false)).comments[0]?.replies.at(-1);
      expect(deep).toMatchObject({ id: deeper.id, replyingTo: "Owner" });

      await drain();
      await drain();
      const replies = () => mailsTo(smtp, reader).filter((m) => /replied to your comment/.test(parseMail(m).subject ?? ""));
      const mails = await waitFor(() => replies().length >= 1 && replies(), 5_000, "the reply email");
      expect(mails).toHaveLength(1);
      const email = readableMail(mails[0] as ReceivedMail);
      expect(parseMail(mails[0] as ReceivedMail).subject).toMatch(/^Owner replied to your comment/);
      expect(email).toContain("Thanks for reading!");
      expect(email).toContain("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
      const unsubscribe = new URL(/List-Unsubscribe: <([^>]+)>/.exec(email)?.[1] ?? "");
      await unsubscribeReplies(ctx.db, unsubscribe.searchParams.get("id") ?? "", unsubscribe.searchParams.get("token") ?? "");
      const [row] = await ctx.db.select({ notify: comments.notifyReplies }).from(comments).where(eq(comments.id, first.id));
      expect(row?.notify).toBe(false);
      await replyAsAuthor(ctx.db, await admin(), first.id, { body: "One more reply" }, SITE);
      await drain();
      expect(replies()).toHaveLength(1);

      // Spam under a trusted email ends the trust; the owner can also stop it by hand.
      await forgetEmailLimits();
      await moderateComment(ctx.db, await admin(), second.id, "spam");
      expect((await comment(post.id, { email: reader, body: "Am I still trusted?" })).state).toBe("pending");
      expect((await listTrustedCommenters(ctx.db, await admin())).map((p) => p.email)).not.toContain(reader);
      const again = await comment(post.id, { email: reader, body: "Trusted once more." });
      await trustCommentAuthor(ctx.db, await admin(), again.id);
      await untrustCommentAuthor(ctx.db, await admin(), reader);
      expect((await comment(post.id, { email: reader, body: "Waiting again." })).state).toBe("pending");
      // A confirmed address gets no more confirmation links.
      await drain();
      expect(mailsTo(smtp, reader).filter((m) => /^Confirm your email/.test(parseMail(m).subject ?? ""))).toHaveLength(1);
    });

    it("spam training, the honeypot, the edit window and comments switched off", async () => {
      const post = await publish();
      const spammer = `spammer-${Date.now()}@comments.example`;
      const spam = await comment(post.id, {
        email: spammer,
        body: "Buy cheap pills https://a.example https://b.example https://c.example",
      });
      expect(spam.state).toBe("pending");
      await moderateComment(ctx.db, await admin(), spam.id, "spam");
      // The honeypot: answered like a held comment, nothing stored.
      const bot = await comment(post.id, { email: spammer, body: "bot", fax: "555" });
      expect(await ctx.db.select({ id: comments.id }).from(comments).where(eq(comments.id, bot.id))).toEqual([]);

      const own = await comment(post.id, { email: `own-${Date.now()}@comments.example`, body: "Typo hree" });
      expect((await commentForOwnEdit(ctx.db, own.id, own.editToken)).body).toBe("Typo hree");
      await expect(commentForOwnEdit(ctx.db, own.id, spam.editToken)).rejects.toThrow(/not found/i);
      await deleteOwnComment(ctx.db, own.id, own.editToken);
      expect(
        await ctx.db
          .select({ id: comments.id })
          .from(comments)
          .where(and(eq(comments.id, own.id))),
      ).toEqual([]);

      await saveCommentSettings(ctx.db, await admin(), { enabled: false, closeAfterDays: 0, linkLimit: 2, newestFirst: false });
      await expect(comment(post.id, { email: "late@comments.example" })).rejects.toBeInstanceOf(ForbiddenError);
      await saveCommentSettings(ctx.db, await admin(), { enabled: true, closeAfterDays: 0, linkLimit: 2, newestFirst: false });
    });
  });
});
