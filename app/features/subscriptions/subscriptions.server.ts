import { mailboxOf } from "~/lib/email";
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { and, arrayContains, count, desc, eq, gt, isNotNull, isNull, notExists, notInArray, sql } from "drizzle-orm";
import { z } from "zod";
import { CATEGORIES, type Category } from "~/lib/categories";
import { canManageSubscribers, canUpdatePost, type Actor } from "~/lib/permissions";
import { recordAudit } from "~/server/audit.server";
import { authorize } from "~/server/authorize.server";
import type { Db } from "~/server/db/client.server";
import { blogPosts, mailOutbox, newsletterSends, SUBSCRIBER_STATES, subscribers, user } from "~/server/db/schema.server";
import { getEnv } from "~/server/env.server";
import { ConflictError, ForbiddenError, NotFoundError, parseOrThrow, ValidationError } from "~/server/errors.server";
import { logger } from "~/server/logger.server";
import { defineMailKind } from "~/server/mail-outbox.server";
import { isMailConfigured, subscriptionsAvailable } from "~/server/mail-settings.server";
import { describeSmtpError, sendMail, type MailMessage } from "~/server/mail.server";
import { pageWindow } from "~/server/pagination.server";
import { enforceRateLimits } from "~/server/rate-limit.server";
import { getAppSecret } from "~/server/secret.server";
import { readSiteSettings } from "~/features/settings/settings.server";
import { VERIFICATION_REQUIRED } from "~/features/verification/verification";
import { verifyHumanToken } from "~/features/verification/verification.server";
import { newsletterMessage, noticeMessage } from "./newsletter-email.server";
import { readNewsletterSettings } from "./newsletter-settings.server";
import { csvRow, manageSchema, SUBSCRIBE_TEXT, subscribeRequestSchema } from "./subscription-schema";

/** How long a confirmation link works. */
export const CONFIRM_TOKEN_TTL_MS = 48 * 3_600_000;

const hashToken = (token: string) => createHash("sha256").update(token).digest("base64url");

// ---- Signed links (unsubscribe, manage): the subscriber's id and an HMAC of it; deleting the row ends them ----

async function signature(db: Db, id: string): Promise<string> {
  return createHmac("sha256", await getAppSecret(db))
    .update(`subscriber:${id}`)
    .digest("base64url");
}

/** The token in a subscriber's unsubscribe and manage links. */
export async function subscriberToken(db: Db, id: string): Promise<string> {
  return `${id}.${await signature(db, id)}`;
}

/** The subscriber id a token was signed for, or null for a malformed or forged one. */
async function subscriberIdOf(db: Db, token: string | null | undefined): Promise<string | null> {
  const [id, mac, extra] = (token ?? "").split(".");
  if (!id || !mac || extra !== undefined || !z.uuid().safeParse(id).success) return null;
  const expected = Buffer.from(await signature(db, id));
  const given = Buffer.from(mac);
  return given.length === expected.length && timingSafeEqual(given, expected) ? id : null;
}

export async function subscriptionLinks(db: Db, id: string) {
  const token = encodeURIComponent(await subscriberToken(db, id));
  const base = getEnv().publicUrl;
  return { unsubscribeUrl: `${base}/unsubscribe?token=${token}`, manageUrl: `${base}/subscribe/manage?token=${token}` };
}

// ---- Subscribing (double opt-in) ----

/**
 * Takes a subscription request: verification, rate limits (per IP like contact, and per address so
 * nobody is flooded with confirmation emails), then stores the address as pending and queues its
 * confirmation email. The answer is the same whether the address was new, pending or already
 * confirmed, so the form does not tell who subscribes; a confirmed subscriber's categories change
 * only through their own manage link.
 */
export async function subscribe(db: Db, body: unknown, ip: string): Promise<{ subscriberId: string }> {
  const { email, categories, verificationToken } = parseOrThrow(subscribeRequestSchema, body);
  // Nothing public may claim an email was sent when none can be.
  if (!(await subscriptionsAvailable(db))) throw new ConflictError(SUBSCRIBE_TEXT.unavailable);
  if (!verificationToken) throw new ForbiddenError(VERIFICATION_REQUIRED.description);
  await verifyHumanToken(db, verificationToken, ip);
  await enforceRateLimits(
    db,
    [
      { key: `subscribe:ip:${ip}`, limit: getEnv().CONTACT_RATE_LIMIT_PER_10_MIN, windowSeconds: 600 },
      { key: `subscribe:email:${mailboxOf(email)}`, limit: 3, windowSeconds: 3600 },
    ],
    SUBSCRIBE_TEXT.rateLimited,
  );
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(subscribers)
      .values({ email, categories, state: "pending" })
      .onConflictDoUpdate({
        target: subscribers.email,
        // A confirmed subscriber keeps their state and categories; anyone else starts over as pending.
        set: {
          categories: sql`case when ${subscribers.state} = 'confirmed' then ${subscribers.categories} else excluded.categories end`,
          state: sql`case when ${subscribers.state} = 'confirmed' then 'confirmed' else 'pending' end`,
        },
      })
      .returning({ id: subscribers.id });
    if (!row) throw new Error("subscriber upsert returned no row");
    await subscriptionMail.enqueue(tx, { to: email, payload: { subscriberId: row.id } });
    return { subscriberId: row.id };
  });
}

/**
 * The email a subscribe request sends: to a pending address the confirmation link (a new one; only
 * its hash is stored, and the latest link is the one that works), to a confirmed one a reminder
 * with the manage link. Nothing else is ever sent to an unconfirmed address.
 */
export const subscriptionMail = defineMailKind("subscriptions.confirm", {
  label: "Subscription confirmation",
  schema: z.object({ subscriberId: z.uuid() }),
  async render({ subscriberId }, { db }) {
    const [found] = await db
      .select({ id: subscribers.id, email: subscribers.email, state: subscribers.state })
      .from(subscribers)
      .where(eq(subscribers.id, subscriberId));
    if (!found || found.state === "unsubscribed") return { skip: "Not sent: the address is no longer subscribed." };
    const { siteName } = await readSiteSettings(db);
    if (found.state === "confirmed") {
      const { manageUrl } = await subscriptionLinks(db, found.id);
      return noticeMessage(db, {
        to: found.email,
        subject: `You're already subscribed to ${siteName}`,
        paragraphs: [`Someone (hopefully you) asked to subscribe this address to ${siteName}. It is subscribed already.`],
        action: { label: "Change your categories or unsubscribe", href: manageUrl },
      });
    }
    const token = randomBytes(32).toString("base64url");
    await db
      .update(subscribers)
      .set({ confirmTokenHash: hashToken(token), confirmExpiresAt: new Date(Date.now() + CONFIRM_TOKEN_TTL_MS) })
      .where(and(eq(subscribers.id, found.id), eq(subscribers.state, "pending")));
    const link = `${getEnv().publicUrl}/subscribe/confirm?token=${encodeURIComponent(token)}`;
    return noticeMessage(db, {
      to: found.email,
      subject: `Confirm your subscription to ${siteName}`,
      paragraphs: [
        `Someone (hopefully you) asked to receive new posts of ${siteName} by email.`,
        "Confirm your subscription here (the link works once, for 48 hours):",
      ],
      action: { label: "Confirm your subscription", href: link },
      closing: "If you did not ask for this, ignore this email: nothing more will be sent to you.",
    });
  },
});

/** Follows a confirmation link: once, before it expires. */
export async function confirmSubscription(db: Db, token: string | null | undefined): Promise<{ subscriberId: string }> {
  if (!token || token.length > 200) throw new ValidationError(SUBSCRIBE_TEXT.linkInvalid);
  const confirmed = await db
    .update(subscribers)
    .set({ state: "confirmed", confirmedAt: sql`now()`, confirmTokenHash: null, confirmExpiresAt: null, unsubscribedAt: null })
    .where(
      and(
        eq(subscribers.confirmTokenHash, hashToken(token)),
        eq(subscribers.state, "pending"),
        gt(subscribers.confirmExpiresAt, sql`now()`),
      ),
    )
    .returning({ id: subscribers.id });
  const [row] = confirmed;
  if (!row) throw new ValidationError(SUBSCRIBE_TEXT.linkInvalid);
  logger.info({ subscriberId: row.id }, "subscription confirmed");
  return { subscriberId: row.id };
}

/** The subscription a manage or unsubscribe link belongs to. */
export async function getSubscription(db: Db, token: string | null | undefined) {
  const id = await subscriberIdOf(db, token);
  const [found] = id
    ? await db
        .select({ id: subscribers.id, email: subscribers.email, categories: subscribers.categories, state: subscribers.state })
        .from(subscribers)
        .where(eq(subscribers.id, id))
    : [];
  if (!found) throw new NotFoundError(SUBSCRIBE_TEXT.manageInvalid);
  return { ...found, categories: found.categories.filter((c): c is Category => CATEGORIES.some((known) => known === c)) };
}

/** One-click unsubscribe (RFC 8058): a valid link unsubscribes, again and again without error. */
export async function unsubscribe(db: Db, token: string | null | undefined): Promise<void> {
  const { id } = await getSubscription(db, token);
  await db
    .update(subscribers)
    .set({ state: "unsubscribed", unsubscribedAt: sql`coalesce(${subscribers.unsubscribedAt}, now())`, confirmTokenHash: null })
    .where(eq(subscribers.id, id));
  logger.info({ subscriberId: id }, "unsubscribed");
}

/** Saves the categories chosen on the manage page (of a confirmed subscriber). */
export async function updateSubscriptionCategories(db: Db, token: string | null | undefined, body: unknown): Promise<void> {
  const subscription = await getSubscription(db, token);
  if (subscription.state !== "confirmed") throw new NotFoundError(SUBSCRIBE_TEXT.manageInvalid);
  const { categories } = parseOrThrow(manageSchema, body);
  await db.update(subscribers).set({ categories }).where(eq(subscribers.id, subscription.id));
}

// ---- New posts to subscribers ----

/** The dedupe key of one post's email to one subscriber. */
export function newsletterJobKey(postId: string, subscriberId: string): string {
  return `newsletter:${postId}:${subscriberId}`;
}

/**
 * Called in every transaction that can make a post go live (create, update, the scheduler), after
 * the post row is written. When the post is published, its author chose "Publish and email
 * subscribers" and it was never emailed, it is marked emailed — the conditional UPDATE lets this
 * happen once per post, ever, whichever path, instance or retry gets there — and one email per
 * confirmed subscriber of its category is queued. The jobs commit with the publication or not at
 * all. Returns how many were queued, or null when the post is not emailed now.
 */
export async function emailPostIfChosen(tx: Db, postId: string): Promise<number | null> {
  const [post] = await tx
    .update(blogPosts)
    .set({ emailedAt: sql`now()`, emailedCount: 0 })
    .where(and(eq(blogPosts.id, postId), eq(blogPosts.published, true), eq(blogPosts.emailOnPublish, true), isNull(blogPosts.emailedAt)))
    .returning({ category: blogPosts.category });
  if (!post) return null;
  const audience = await tx
    .select({ id: subscribers.id, email: subscribers.email })
    .from(subscribers)
    .where(and(eq(subscribers.state, "confirmed"), arrayContains(subscribers.categories, [post.category])));
  for (const { id, email } of audience) {
    await newsletterMail.enqueue(tx, { to: email, payload: { postId, subscriberId: id } }, { key: newsletterJobKey(postId, id) });
  }
  await tx.update(blogPosts).set({ emailedCount: audience.length }).where(eq(blogPosts.id, postId));
  logger.info({ postId, subscribers: audience.length }, "post queued for its subscribers");
  return audience.length;
}

/** The columns of a post its email shows. */
const newsletterPostColumns = {
  id: blogPosts.id,
  title: blogPosts.title,
  slug: blogPosts.slug,
  category: blogPosts.category,
  excerpt: blogPosts.excerpt,
  contentHtml: blogPosts.contentHtml,
  featuredImageUrl: blogPosts.featuredImageUrl,
  featuredImageAlt: blogPosts.featuredImageAlt,
  published: blogPosts.published,
};

/**
 * One post to one subscriber, at least once and, but for one narrow window, exactly once. The outbox
 * delivers the row at least once (a process killed mid-send leaves its lease to run out, then any
 * instance sends it again); the newsletter_sends row's sent_at, set as soon as the SMTP server
 * accepted the email, turns every later attempt into a skip. Only a process killed between the SMTP
 * server's acceptance and that update sends a second copy. Paced across all instances at the
 * newsletter settings' rate, read for every email.
 */
const newsletterPayload = z.object({ postId: z.uuid(), subscriberId: z.uuid() });

export const newsletterMail = defineMailKind("subscriptions.newsletter", {
  label: "New post",
  schema: newsletterPayload,
  ratePerSecond: async (db) => (await readNewsletterSettings(db)).ratePerSecond,
  async render({ postId, subscriberId }, { db }) {
    const [subscriber] = await db
      .select({ email: subscribers.email, state: subscribers.state, categories: subscribers.categories })
      .from(subscribers)
      .where(eq(subscribers.id, subscriberId));
    const [post] = await db.select(newsletterPostColumns).from(blogPosts).where(eq(blogPosts.id, postId));
    // Unsubscribed, deleted, or no longer interested since the post was queued; or the post went back to draft.
    if (!subscriber || subscriber.state !== "confirmed" || !post?.published || !subscriber.categories.includes(post.category)) {
      return { skip: "Not sent: no longer subscribed to this post's category, or the post is no longer published." };
    }
    const [record] = await db
      .insert(newsletterSends)
      .values({ postId, subscriberId })
      .onConflictDoUpdate({ target: [newsletterSends.postId, newsletterSends.subscriberId], set: { startedAt: sql`now()` } })
      .returning({ sentAt: newsletterSends.sentAt });
    if (record?.sentAt) return { skip: "Not sent again: this subscriber has had this post already." };
    return newsletterMessage(db, post, subscriber.email, await subscriptionLinks(db, subscriberId), subscriberId);
  },
  async onSent(payload, { db }) {
    await db
      .update(newsletterSends)
      .set({ sentAt: sql`now()` })
      .where(and(eq(newsletterSends.postId, payload.postId), eq(newsletterSends.subscriberId, payload.subscriberId)));
  },
});

// ---- Editor: the post's email, previewed and sent as a test ----

const POST_EMAIL_FORBIDDEN = "Only administrators and moderators can preview a post's email.";
export const TEST_EMAIL_TEXT = {
  sent: "Test email sent",
  rateLimited: "Too many test emails. Try again in a few minutes.",
  notSetUp: "Email isn't set up, so the test email could not be sent.",
} as const;

async function postForEmail(db: Db, postId: string) {
  const id = parseOrThrow(z.uuid(), postId, "That post no longer exists.");
  const [post] = await db.select(newsletterPostColumns).from(blogPosts).where(eq(blogPosts.id, id));
  if (!post) throw new NotFoundError("That post no longer exists.");
  return post;
}

/** Links of an email that goes to no subscriber (preview, test): they lead to the subscription pages' "invalid link" answer. */
function sampleLinks() {
  const base = getEnv().publicUrl;
  return { unsubscribeUrl: `${base}/unsubscribe?token=preview`, manageUrl: `${base}/subscribe/manage?token=preview` };
}

/** The exact email subscribers get for a post (HTML and plain-text parts, headers), addressed to a sample subscriber. */
export async function previewPostEmail(db: Db, actor: Actor | null, postId: string): Promise<MailMessage> {
  authorize(actor, canUpdatePost, POST_EMAIL_FORBIDDEN);
  return newsletterMessage(db, await postForEmail(db, postId), "subscriber@example.com", sampleLinks(), "preview");
}

/** Sends the post's email to the acting user's own address, subject marked "[Test]". */
export async function sendTestPostEmail(db: Db, actor: Actor | null, postId: string): Promise<{ to: string }> {
  authorize(actor, canUpdatePost, POST_EMAIL_FORBIDDEN);
  const post = await postForEmail(db, postId);
  await enforceRateLimits(db, [{ key: `newsletter-test:${actor.id}`, limit: 10, windowSeconds: 600 }], TEST_EMAIL_TEXT.rateLimited);
  const [me] = await db.select({ email: user.email }).from(user).where(eq(user.id, actor.id));
  if (!me) throw new NotFoundError("Your account no longer exists.");
  const message = await newsletterMessage(db, post, me.email, sampleLinks(), "test", "[Test] ");
  let result: Awaited<ReturnType<typeof sendMail>>;
  try {
    result = await sendMail(db, message);
  } catch (error) {
    throw new ValidationError(`The test email could not be sent: ${describeSmtpError(error)}`);
  }
  if (!result.delivered) throw new ValidationError(TEST_EMAIL_TEXT.notSetUp);
  logger.info({ postId: post.id, userId: actor.id }, "test newsletter email sent");
  return { to: me.email };
}

/** The post's "email subscribers" choice, and whether and when it went to its subscribers, for the editor. */
export async function postEmailStatus(
  db: Db,
  postId: string,
): Promise<{ emailOnPublish: boolean; emailed: { at: Date; queued: number; sent: number } | null }> {
  const [post] = await db
    .select({ emailOnPublish: blogPosts.emailOnPublish, emailedAt: blogPosts.emailedAt, emailedCount: blogPosts.emailedCount })
    .from(blogPosts)
    .where(eq(blogPosts.id, postId));
  if (!post) throw new NotFoundError("That post no longer exists.");
  const emailed = post.emailedAt ? { at: post.emailedAt, queued: post.emailedCount ?? 0, sent: await sentCount(db, postId) } : null;
  return { emailOnPublish: post.emailOnPublish, emailed };
}

// ---- Admin (/admin/subscribers) ----

export const SUBSCRIBERS_FORBIDDEN = "Only administrators can manage subscribers.";
export const SUBSCRIBERS_PAGE_SIZE = 50;

/** Counts (per state, and confirmed subscribers per category) and one page of the list, newest first. */
export async function listSubscribers(db: Db, actor: Actor | null, page = 1) {
  authorize(actor, canManageSubscribers, SUBSCRIBERS_FORBIDDEN);
  const states = await db.select({ state: subscribers.state, n: count() }).from(subscribers).groupBy(subscribers.state);
  const inState = (state: (typeof SUBSCRIBER_STATES)[number]) => states.find((r) => r.state === state)?.n ?? 0;
  const byState = { pending: inState("pending"), confirmed: inState("confirmed"), unsubscribed: inState("unsubscribed") };
  const perCategory = await db
    .select({ category: sql<string>`unnest(${subscribers.categories})`, n: count() })
    .from(subscribers)
    .where(eq(subscribers.state, "confirmed"))
    .groupBy(sql`1`);
  const byCategory = CATEGORIES.map((category) => ({ category, confirmed: perCategory.find((r) => r.category === category)?.n ?? 0 }));
  const total = byState.pending + byState.confirmed + byState.unsubscribed;
  const window = pageWindow(total, page, SUBSCRIBERS_PAGE_SIZE);
  const rows = await listQuery(db).limit(window.limit).offset(window.offset);
  return { byState, byCategory, total, rows, page: window.page, pageCount: window.pageCount };
}

function listQuery(db: Db) {
  return db
    .select({
      id: subscribers.id,
      email: subscribers.email,
      categories: subscribers.categories,
      state: subscribers.state,
      createdAt: subscribers.createdAt,
      confirmedAt: subscribers.confirmedAt,
      unsubscribedAt: subscribers.unsubscribedAt,
    })
    .from(subscribers)
    .orderBy(desc(subscribers.createdAt), desc(subscribers.id));
}

export type SubscriberRow = Awaited<ReturnType<typeof listSubscribers>>["rows"][number];

/** Every subscriber as CSV (formula-looking cells neutralised, see csvCell). */
export async function exportSubscribersCsv(db: Db, actor: Actor | null): Promise<string> {
  authorize(actor, canManageSubscribers, SUBSCRIBERS_FORBIDDEN);
  const rows = await listQuery(db);
  const iso = (d: Date | null) => d?.toISOString() ?? "";
  const lines = [
    csvRow(["email", "state", "categories", "subscribed_at", "confirmed_at", "unsubscribed_at"]),
    ...rows.map((r) => csvRow([r.email, r.state, r.categories.join(" "), iso(r.createdAt), iso(r.confirmedAt), iso(r.unsubscribedAt)])),
  ];
  return `${lines.join("\r\n")}\r\n`;
}

/** Removes an address for good (its send records go with it); the audit names no address. */
export async function deleteSubscriber(db: Db, actor: Actor | null, rawId: unknown): Promise<void> {
  authorize(actor, canManageSubscribers, SUBSCRIBERS_FORBIDDEN);
  const id = parseOrThrow(z.uuid(), rawId, "That subscriber no longer exists.");
  await db.transaction(async (tx) => {
    const deleted = await tx.delete(subscribers).where(eq(subscribers.id, id)).returning({ id: subscribers.id });
    if (deleted.length === 0) throw new NotFoundError("That subscriber no longer exists.");
    await recordAudit(tx, { actor, action: "subscriber.delete", target: { type: "subscriber", id }, summary: "Deleted a subscriber" });
  });
}

/**
 * Re-sends the confirmation email to every pending subscriber (once mail works): one button,
 * rate-limited, and each address at most once per 24 hours (a confirmation that never left, because
 * mail was not set up or every attempt failed, does not count). Returns how many were queued.
 */
export async function resendPendingConfirmations(db: Db, actor: Actor | null): Promise<number> {
  authorize(actor, canManageSubscribers, SUBSCRIBERS_FORBIDDEN);
  if (!(await isMailConfigured(db))) throw new ConflictError(SUBSCRIBE_TEXT.resendNeedsMail);
  await enforceRateLimits(
    db,
    [{ key: "subscriptions:resend-confirmations", limit: 3, windowSeconds: 3600 }],
    SUBSCRIBE_TEXT.resendRateLimited,
  );
  const recent = db
    .select({ one: sql`1` })
    .from(mailOutbox)
    .where(
      and(
        eq(mailOutbox.kind, subscriptionMail.kind),
        eq(mailOutbox.recipient, subscribers.email),
        notInArray(mailOutbox.state, ["skipped", "failed"]),
        gt(mailOutbox.createdAt, sql`now() - interval '24 hours'`),
      ),
    );
  const due = await db
    .select({ id: subscribers.id, email: subscribers.email })
    .from(subscribers)
    .where(and(eq(subscribers.state, "pending"), notExists(recent)));
  const day = Math.floor(Date.now() / 86_400_000);
  await db.transaction(async (tx) => {
    for (const { id, email } of due) {
      await subscriptionMail.enqueue(tx, { to: email, payload: { subscriberId: id } }, { key: `confirm-resend:${id}:${day}` });
    }
    await recordAudit(tx, { actor, action: "subscriber.resend-confirmations", summary: `Re-sent ${due.length} confirmation emails` });
  });
  return due.length;
}

/** How many emails about a post went out (tests and the admin). */
export async function sentCount(db: Db, postId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(newsletterSends)
    .where(and(eq(newsletterSends.postId, postId), isNotNull(newsletterSends.sentAt)));
  return row?.n ?? 0;
}
