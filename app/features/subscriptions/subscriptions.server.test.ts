import { SUBSCRIBE_TEXT } from "./subscription-schema";
import { eq, like } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { createPost, updatePost } from "~/features/posts/write/posts.server";
import { publishScheduledPost } from "~/features/posts/write/scheduling.server";
import type { Category } from "~/lib/categories";
import { auditLog, blogPosts, mailOutbox, newsletterSends, subscribers } from "~/server/db/schema.server";
import { ForbiddenError, NotFoundError, ValidationError } from "~/server/errors.server";
import { MailOutbox } from "~/server/mail-outbox.server";
import { easyVerificationToken, waitFor } from "../../../tests/helpers/contact";
import { describeEachDatabase } from "../../../tests/helpers/databases";
import { makeUser } from "../../../tests/helpers/factories";
import { useSecondHandle } from "../../../tests/helpers/second-handle";
import { readableMail, type ReceivedMail } from "../../../tests/helpers/smtp";
import { mailsTo, useSmtpServer } from "../../../tests/helpers/smtp-suite";
import {
  confirmSubscription,
  deleteSubscriber,
  exportSubscribersCsv,
  getSubscription,
  listSubscribers,
  newsletterJobKey,
  emailPostIfChosen,
  previewPostEmail,
  sendTestPostEmail,
  sentCount,
  subscribe,
  unsubscribe,
  updateSubscriptionCategories,
} from "./subscriptions.server";

describe("email subscriptions", () => {
  const smtp = useSmtpServer();

  describeEachDatabase("email subscriptions", (ctx) => {
    const secondDatabase = useSecondHandle(ctx);
    const runners: MailOutbox[] = [];
    afterEach(async () => {
      await Promise.all(runners.splice(0).map((r) => r.stop()));
    });
    let n = 0;
    const address = (label: string) => `${label}-${++n}-${Date.now()}@subscribers.example`;
    let ipCounter = 0;
    const ip = () => `10.9.${ctx.kind === "pglite" ? 1 : 2}.${++ipCounter}`;
    const drain = () => new MailOutbox({ db: () => ctx.db }).drain();
    const admin = async () => (await makeUser(ctx.db, { role: "admin" })).actor;
    const publish = async (category: Category, label = "Post") =>
      createPost(ctx.db, await admin(), {
        title: `${label} ${++n} ${Date.now()}`,
        content: "Body.",
        excerpt: "The excerpt.",
        category,
        published: true,
      });

    const subscribeAs = async (email: string, categories: Category[]) =>
      subscribe(ctx.db, { email, categories, verificationToken: await easyVerificationToken(ctx.db) }, ip());

    /** Subscribes and follows the emailed confirmation link; returns the manage/unsubscribe token. */
    const confirmedSubscriber = async (email: string, categories: Category[]) => {
      await subscribeAs(email, categories);
      await drain();
      const mail = await waitFor(() => mailsTo(smtp, email).at(-1), 5_000, `confirmation to ${email}`);
      const token = /\/subscribe\/confirm\?token=([\w%-]+)/.exec(readableMail(mail))?.[1];
      if (!token) throw new Error("no confirmation link");
      await confirmSubscription(ctx.db, decodeURIComponent(token));
      const [row] = await ctx.db.select({ id: subscribers.id }).from(subscribers).where(eq(subscribers.email, email));
      if (!row) throw new Error("subscriber missing");
      return row.id;
    };

    it("subscribe → confirm → publish → one email each → unsubscribe → the next post sends nothing to them", async () => {
      const reader = address("reader");
      const pending = address("pending");
      const elsewhere = address("elsewhere");
      await subscribeAs(pending, ["Fitness"]);
      const readerId = await confirmedSubscriber(reader, ["Fitness", "Faith"]);
      await confirmedSubscriber(elsewhere, ["Finance"]);
      // Only the confirmation went to the pending address; nothing else before its link is followed.
      expect(mailsTo(smtp, pending)).toHaveLength(1);
      expect(mailsTo(smtp, reader)).toHaveLength(1);

      const post = await publish("Fitness", "Morning runs");
      await drain();
      const mails = await waitFor(() => mailsTo(smtp, reader).length === 2 && mailsTo(smtp, reader), 5_000, "the post's email");
      const email = readableMail(mails[1] as ReceivedMail);
      expect(email).toMatch(/Subject: Morning runs/);
      expect(email).toContain("The excerpt.");
      expect(email).toContain(`/7fs/Fitness/${post.slug}`);
      expect(email).toMatch(/List-Unsubscribe: <http[^>]+\/unsubscribe\?token=[^>]+>, <mailto:[^>]+>/);
      expect(email).toContain("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
      expect(email).toMatch(/\/subscribe\/manage\?token=/);
      expect(mailsTo(smtp, pending)).toHaveLength(1);
      expect(mailsTo(smtp, elsewhere)).toHaveLength(1);
      expect(await sentCount(ctx.db, post.id)).toBe(1);

      // Publishing the same post again (unpublish, publish) sends nothing more.
      const again = await ctx.db.select({ version: blogPosts.version }).from(blogPosts).where(eq(blogPosts.id, post.id));
      const body = { title: "Morning runs again", content: "Body.", category: "Fitness" as const };
      await updatePost(ctx.db, await admin(), post.slug, { ...body, published: false, version: again[0]?.version });
      await updatePost(ctx.db, await admin(), post.slug, { ...body, published: true });
      await drain();
      expect(mailsTo(smtp, reader)).toHaveLength(2);

      const unsubscribeUrl = /List-Unsubscribe: <([^>]+)>/.exec(email)?.[1] ?? "";
      const token = new URL(unsubscribeUrl).searchParams.get("token");
      await unsubscribe(ctx.db, token);
      await unsubscribe(ctx.db, token);
      expect((await getSubscription(ctx.db, token)).state).toBe("unsubscribed");
      await publish("Fitness");
      await drain();
      expect(mailsTo(smtp, reader)).toHaveLength(2);
      expect(
        await ctx.db
          .select()
          .from(mailOutbox)
          .where(like(mailOutbox.dedupeKey, `newsletter:%:${readerId}`)),
      ).toHaveLength(1);
    });

    it("confirmation mails per mailbox: victim+1@…, victim+2@… count as one address (3 an hour)", async () => {
      const local = `victim-${Date.now()}`;
      for (const tag of ["", "+1", "+2"]) await subscribeAs(`${local}${tag}@subscribers.example`, ["Fun"]);
      await expect(subscribeAs(`${local}+3@subscribers.example`, ["Fun"])).rejects.toThrow(SUBSCRIBE_TEXT.rateLimited);
      await expect(subscribeAs(`${local.toUpperCase()}+x@Subscribers.example`, ["Fun"])).rejects.toThrow(SUBSCRIBE_TEXT.rateLimited);
      // Another mailbox is not held back.
      await subscribeAs(`other-${local}+3@subscribers.example`, ["Fun"]);
    });

    it("a scheduled post carries the publish choice: emailed when the scheduler publishes it, or not", async () => {
      const reader = address("scheduled");
      await confirmedSubscriber(reader, ["Fun"]);
      const at = new Date(Date.now() + 3_600_000);
      const schedule = async (emailSubscribers: boolean, title: string) =>
        createPost(ctx.db, await admin(), {
          title,
          content: "Body.",
          category: "Fun",
          published: false,
          publishAt: at,
          emailSubscribers,
        });
      const emailedTitle = `Later emailed ${Date.now()}`;
      const quiet = await schedule(false, `Later quiet ${Date.now()}`);
      const post = await schedule(true, emailedTitle);
      await drain();
      expect(mailsTo(smtp, reader)).toHaveLength(1);
      expect(await publishScheduledPost(ctx.db, quiet.id, at)).toBe(true);
      expect(await publishScheduledPost(ctx.db, post.id, at)).toBe(true);
      await drain();
      await waitFor(() => mailsTo(smtp, reader).length === 2, 5_000, "the scheduled post's email");
      await drain();
      expect(mailsTo(smtp, reader).map((m) => /^Subject: (.*)$/m.exec(readableMail(m))?.[1])).toEqual([
        expect.stringMatching(/^Confirm your subscription/),
        emailedTitle,
      ]);
      expect(await sentCount(ctx.db, quiet.id)).toBe(0);
    });

    it("confirmation links work once, never after expiry, and a forged manage link finds nothing", async () => {
      const reader = address("once");
      await subscribeAs(reader, ["Family"]);
      await drain();
      const mail = await waitFor(() => mailsTo(smtp, reader)[0], 5_000, "confirmation");
      const token = decodeURIComponent(/\/subscribe\/confirm\?token=([\w%-]+)/.exec(readableMail(mail))?.[1] ?? "");
      const [stored] = await ctx.db.select().from(subscribers).where(eq(subscribers.email, reader));
      expect(stored?.confirmTokenHash).not.toBe(token);
      expect(JSON.stringify(await ctx.db.select().from(mailOutbox))).not.toContain(token);
      await ctx.db
        .update(subscribers)
        .set({ confirmExpiresAt: new Date(Date.now() - 1000) })
        .where(eq(subscribers.email, reader));
      await expect(confirmSubscription(ctx.db, token)).rejects.toBeInstanceOf(ValidationError);
      await ctx.db
        .update(subscribers)
        .set({ confirmExpiresAt: new Date(Date.now() + 60_000) })
        .where(eq(subscribers.email, reader));
      await confirmSubscription(ctx.db, token);
      await expect(confirmSubscription(ctx.db, token)).rejects.toBeInstanceOf(ValidationError);
      const id = stored?.id ?? "";
      await expect(getSubscription(ctx.db, `${id}.forged`)).rejects.toBeInstanceOf(NotFoundError);
      await expect(unsubscribe(ctx.db, "nonsense")).rejects.toBeInstanceOf(NotFoundError);
    });

    it("a second subscribe of a confirmed address changes nothing and sends the manage link, not a confirmation", async () => {
      const reader = address("again");
      const id = await confirmedSubscriber(reader, ["Faith"]);
      await subscribeAs(reader, ["Finance"]);
      await drain();
      const mail = await waitFor(() => mailsTo(smtp, reader)[1], 5_000, "reminder");
      expect(readableMail(mail)).toMatch(/already subscribed/);
      expect(readableMail(mail)).not.toMatch(/subscribe\/confirm/);
      const [row] = await ctx.db.select().from(subscribers).where(eq(subscribers.id, id));
      expect(row).toMatchObject({ state: "confirmed", categories: ["Faith"] });
      const token = /\/subscribe\/manage\?token=([\w%.-]+)/.exec(readableMail(mail))?.[1] ?? "";
      await updateSubscriptionCategories(ctx.db, decodeURIComponent(token), { categories: ["Fun", "Family"] });
      expect((await getSubscription(ctx.db, decodeURIComponent(token))).categories).toEqual(["Fun", "Family"]);
      await expect(updateSubscriptionCategories(ctx.db, decodeURIComponent(token), { categories: [] })).rejects.toBeInstanceOf(
        ValidationError,
      );
    });

    it("refuses a missing verification token", async () => {
      await expect(subscribe(ctx.db, { email: address("bot"), categories: ["Fun"] }, ip())).rejects.toBeInstanceOf(ForbiddenError);
    });

    it("two runners on one database send each subscriber's email exactly once", async () => {
      const readers = [address("pair-a"), address("pair-b"), address("pair-c")];
      for (const reader of readers) await confirmedSubscriber(reader, ["Figurehead"]);
      const post = await publish("Figurehead");
      // A second call of the hook (as a second publish path would) queues nothing new.
      expect(await ctx.db.transaction((tx) => emailPostIfChosen(tx, post.id))).toBeNull();
      const a = new MailOutbox({ pollMs: 50, db: () => ctx.db });
      const b = new MailOutbox({ pollMs: 50, db: () => secondDatabase().db });
      runners.push(a, b);
      await Promise.all([a.start(), b.start()]);
      await waitFor(async () => (await sentCount(ctx.db, post.id)) === 3, 15_000, "three emails");
      for (const reader of readers) expect(mailsTo(smtp, reader)).toHaveLength(2);
      const keys = await ctx.db
        .select({ key: mailOutbox.dedupeKey })
        .from(mailOutbox)
        .where(like(mailOutbox.dedupeKey, `newsletter:${post.id}:%`));
      expect(keys).toHaveLength(3);
      const sends = await ctx.db.select().from(newsletterSends).where(eq(newsletterSends.postId, post.id));
      expect(keys.map((k) => k.key).sort()).toEqual(sends.map((s) => newsletterJobKey(post.id, s.subscriberId)).sort());
    });

    it("a post's email: preview as subscribers get it, a test to the writer's own address only, refused to readers", async () => {
      const writer = await makeUser(ctx.db, { role: "admin" });
      const post = await createPost(ctx.db, writer.actor, {
        title: `Previewed <post> ${++n}`,
        content: "The **body** of the post.",
        excerpt: "The excerpt.",
        category: "Fun",
        published: false,
      });
      const preview = await previewPostEmail(ctx.db, writer.actor, post.id);
      expect(preview.subject).toContain(`Previewed <post> ${n}`);
      expect(preview.html).toContain("Previewed &lt;post&gt;");
      expect(preview.text).toContain("The excerpt.");
      const before = mailsTo(smtp, writer.email).length;
      await expect(sendTestPostEmail(ctx.db, writer.actor, post.id)).resolves.toEqual({ to: writer.email });
      const mail = await waitFor(() => mailsTo(smtp, writer.email)[before], 5_000, "the test email");
      expect(readableMail(mail)).toMatch(/Subject: \[Test\] Previewed <post>/);
      const reader = (await makeUser(ctx.db, { role: "user" })).actor;
      await expect(previewPostEmail(ctx.db, reader, post.id)).rejects.toBeInstanceOf(ForbiddenError);
      await expect(sendTestPostEmail(ctx.db, reader, post.id)).rejects.toBeInstanceOf(ForbiddenError);
      await expect(sendTestPostEmail(ctx.db, null, post.id)).rejects.toThrow();
      await expect(previewPostEmail(ctx.db, writer.actor, crypto.randomUUID())).rejects.toBeInstanceOf(NotFoundError);
    });

    it("admin: counts, CSV with formula cells neutralised, delete for good; others are refused", async () => {
      const actor = await admin();
      const moderator = (await makeUser(ctx.db, { role: "moderator" })).actor;
      const risky = `=cmd-${++n}@subscribers.example`;
      await ctx.db.insert(subscribers).values({ email: risky, categories: ["Fun"], state: "confirmed" });
      const listed = await listSubscribers(ctx.db, actor);
      expect(listed.byState.confirmed).toBeGreaterThanOrEqual(1);
      expect(listed.byCategory.find((c) => c.category === "Fun")?.confirmed).toBeGreaterThanOrEqual(1);
      const csv = await exportSubscribersCsv(ctx.db, actor);
      expect(csv.split("\r\n")[0]).toBe('"email","state","categories","subscribed_at","confirmed_at","unsubscribed_at"');
      expect(csv).toContain(`"'${risky}","confirmed","Fun"`);
      await expect(listSubscribers(ctx.db, moderator)).rejects.toBeInstanceOf(ForbiddenError);
      await expect(exportSubscribersCsv(ctx.db, null)).rejects.toThrow();
      const row = listed.rows.find((r) => r.email === risky);
      await expect(deleteSubscriber(ctx.db, moderator, row?.id ?? "")).rejects.toBeInstanceOf(ForbiddenError);
      await deleteSubscriber(ctx.db, actor, row?.id ?? "");
      expect(await ctx.db.select().from(subscribers).where(eq(subscribers.email, risky))).toEqual([]);
      const [audit] = await ctx.db.select().from(auditLog).where(eq(auditLog.action, "subscriber.delete"));
      expect(JSON.stringify(audit)).not.toContain(risky);
      await expect(deleteSubscriber(ctx.db, actor, row?.id ?? "")).rejects.toBeInstanceOf(NotFoundError);
    });
  });
});
