import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { moderateComment, replyAsAuthor } from "~/features/comments/comments.server";
import { readContentVersion } from "~/server/content-version.server";
import { comments, mailOutbox, ownerPages } from "~/server/db/schema.server";
import { MailOutbox } from "~/server/mail-outbox.server";
import { waitFor } from "../helpers/contact";
import { describeEachDatabase } from "../helpers/databases";
import { makeUser, unique } from "../helpers/factories";
import { readableMail, type ReceivedMail } from "../helpers/smtp";
import { mailsTo, useSmtpServer } from "../helpers/smtp-suite";
import { BROWSER_UA, useSignedInServer } from "../helpers/test-server";

/**
 * Comments under the owner's pages, through the production server: the page's own switch, the same
 * form (posted without JavaScript), moderation queue, owner and reply mail, and page-cache refresh as
 * under posts.
 */
describe("comments on the owner's pages", () => {
  const smtp = useSmtpServer();

  describeEachDatabase("page comments", (ctx) => {
    const server = useSignedInServer(ctx, "admin");
    const anonymous = (path: string, init: RequestInit = {}) =>
      server.fetch(path, { ...init, headers: { "user-agent": BROWSER_UA, ...init.headers } });
    const savePage = (path: string, fields: Record<string, string>) =>
      server.postForm(path, { intent: "save", content: "About my talks.", metaTitle: "", metaDescription: "", ...fields });
    const drain = () => new MailOutbox({ db: () => ctx.db }).drain();

    it("off by default; turned on, a reader comments without JavaScript, the owner approves and replies, the page shows it", async () => {
      const tag = unique().toLowerCase();
      const address = `talks-${tag}`;
      const title = `Talks ${tag}`;
      expect((await savePage("/admin/pages/new", { title, address: `/${address}`, published: "on" })).status).toBe(302);
      const [page] = await ctx.db.select().from(ownerPages).where(eq(ownerPages.address, address));
      expect(page?.commentsEnabled).toBe(false);
      const off = await (await anonymous(`/${address}`)).text();
      expect(off).toContain(title);
      expect(off).not.toContain('id="comments"');
      // JSON-LD names the page; a comment count only where the page takes comments.
      expect(off).toContain('"@type":"WebPage"');
      expect(off).not.toContain("commentCount");

      // Turned on in the page's editor: the post's comments section, naming the page.
      const on = await savePage(`/admin/pages/${page!.id}`, {
        title,
        address: `/${address}`,
        published: "on",
        commentsEnabled: "on",
        version: String(page!.version),
      });
      expect(on.status).toBe(302);
      const html = await (await anonymous(`/${address}`)).text();
      expect(html).toContain("Leave a comment");
      expect(html).toContain(`name="pageId" value="${page!.id}"`);
      expect(html).not.toContain('name="postId"');
      expect(html).toContain('"commentCount":0');
      const stamp = /name="stamp" value="([^"]+)"/.exec(html)?.[1] ?? "";
      expect(stamp).not.toBe("");

      // Posted without JavaScript (no proof of work): it waits, and the owner's email is queued.
      const reader = `reader-${tag}@comments.example`;
      const sent = await anonymous("/comments", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ pageId: page!.id, name: "Reader", email: reader, body: `Great talk ${tag}`, notify: "on", stamp }),
      });
      expect(sent.status).toBe(200);
      const answer = await sent.text();
      expect(answer).toContain("Your comment is waiting for moderation.");
      expect(answer).toContain(`href="/${address}"`);
      const [row] = await ctx.db
        .select({ id: comments.id, state: comments.state, pageId: comments.pageId, postId: comments.postId })
        .from(comments)
        .where(eq(comments.authorEmail, reader));
      expect(row).toMatchObject({ state: "pending", pageId: page!.id, postId: null });
      expect(
        await ctx.db
          .select({ key: mailOutbox.dedupeKey })
          .from(mailOutbox)
          .where(eq(mailOutbox.dedupeKey, `comment-pending:${row!.id}`)),
      ).toHaveLength(1);
      expect(await (await anonymous(`/${address}`)).text()).not.toContain(`Great talk ${tag}`);

      // The moderation queue names the page and links to it; there is no post switch for it.
      const queue = await (
        await server.fetch("/admin/comments?queue=pending", { headers: { cookie: server.cookie, "user-agent": BROWSER_UA } })
      ).text();
      expect(queue).toContain(title);
      expect(queue).toContain(`href="/${address}"`);

      // Approved: the cached page is drawn again with the comment.
      const owner = await makeUser(ctx.db, { role: "admin" });
      const version = await readContentVersion(ctx.db);
      await moderateComment(ctx.db, owner.actor, row!.id, "approved");
      expect(await readContentVersion(ctx.db)).toBeGreaterThan(version);
      const shown = await (await anonymous(`/${address}`)).text();
      expect(shown).toContain(`Great talk ${tag}`);
      expect(shown).toContain("1 comment");
      expect(shown).toContain('"commentCount":1');
      expect(shown).toContain(`href="/comments?page=${page!.id}&amp;replyTo=${row!.id}#comment-form"`);

      // The reply page for readers without JavaScript works for a page too.
      const replyPage = await anonymous(`/comments?page=${page!.id}&replyTo=${row!.id}`);
      expect(replyPage.status).toBe(200);
      const replyHtml = await replyPage.text();
      expect(replyHtml).toContain(`Reply on “${title}”`);
      expect(replyHtml).toContain(`name="pageId" value="${page!.id}"`);

      // The owner answers as the author: shown under the comment, and the reader is mailed once, with the page's address.
      await replyAsAuthor(ctx.db, { ...owner.actor, email: owner.email, name: "Owner" }, row!.id, { body: `Thanks ${tag}` }, server.url);
      expect(await (await anonymous(`/${address}`)).text()).toContain(`Thanks ${tag}`);
      await drain();
      // (The reader also got the link confirming their email, sent after their comment.)
      const replies = () => mailsTo(smtp, reader).filter((m) => readableMail(m).includes("replied to your comment"));
      const mails = await waitFor(() => replies().length >= 1 && replies(), 5_000, "the reply email");
      expect(mails).toHaveLength(1);
      expect(readableMail(mails[0] as ReceivedMail)).toContain(`/${address}#comment-`);

      // Turned off again: no section, and a form post is refused.
      await savePage(`/admin/pages/${page!.id}`, { title, address: `/${address}`, published: "on" });
      expect(await (await anonymous(`/${address}`)).text()).not.toContain('id="comments"');
      const closed = await anonymous("/comments", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ pageId: page!.id, name: "Reader", email: reader, body: "Late", stamp }),
      });
      expect(closed.status).toBe(403);
      expect(await closed.text()).toContain("Comments are closed here.");

      // Deleting the page deletes its comments.
      expect((await server.postForm("/admin/pages", { intent: "delete", id: page!.id })).status).toBe(302);
      expect(await ctx.db.select({ id: comments.id }).from(comments).where(eq(comments.pageId, page!.id))).toEqual([]);
    });
  });
});
