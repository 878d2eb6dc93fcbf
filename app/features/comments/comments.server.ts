import { mailboxOf } from "~/lib/email";
import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import { getVerificationConfig, verifyHumanToken } from "~/features/verification/verification.server";
import { canModerateComments, canEdit, type Actor } from "~/lib/permissions";
import { recordAudit } from "~/server/audit.server";
import { authorize } from "~/server/authorize.server";
import { bumpContentVersion } from "~/server/content-version.server";
import type { Db } from "~/server/db/client.server";
import {
  blogPosts,
  commentAuthors,
  commentBlocks,
  ownerPages,
  comments,
  commentsClosedPosts,
  type CommentBlockKind,
  type CommentState,
  type MentionKind,
} from "~/server/db/schema.server";
import { ConflictError, ForbiddenError, NotFoundError, parseOrThrow, ValidationError } from "~/server/errors.server";
import { logger } from "~/server/logger.server";
import { enforceRateLimits } from "~/server/rate-limit.server";
import { publicUploadUrl } from "~/features/uploads/uploads.server";
import { avatarFor, remotePhotoUrl } from "./comment-avatars.server";
import { renderCommentMarkdown } from "./comment-markdown.server";
import { ownerCommentMail, replyCommentMail } from "./comment-mail.server";
import { assessComment, UNKNOWN_AUTHOR_REASON, type Verdict } from "./comment-rules";
import {
  isTrustedCommenter,
  queueCommentConfirmation,
  setCommentAuthorTrust,
  trustedAuthor,
  trustedCommenters,
} from "./comment-authors.server";
import { isMailConfigured } from "~/server/mail-settings.server";
import {
  COMMENT_HONEYPOT,
  COMMENT_TEXTS,
  commentBodySchema,
  commentRequestSchema,
  commentSettingsSchema,
  EDIT_WINDOW_MS,
  MIN_SUBMIT_MS,
  subjectOf,
  type CommentSettings,
  type CommentSubjectRef,
  type CommentView,
  type MentionView,
} from "./comment-schema";
import { checkCommentSignature, makeStamp, signComment, stampAge } from "./comment-tokens.server";
import { scoreComment, trainComment } from "./spam-filter.server";
import {
  findCommentSubject,
  onSubject,
  subjectColumns,
  subjectPath,
  subjectRefOf,
  subjectTitle,
  subjectValues,
  type CommentSubject,
} from "./comment-subject.server";
import { readJsonSetting, writeJsonSetting } from "~/server/app-settings.server";
import { addFediverseBlock } from "~/features/fediverse/fediverse.server";

export { remotePhotoUrl } from "./comment-avatars.server";

export const COMMENTS_FORBIDDEN = "Only administrators and moderators can moderate comments.";
const COMMENT_NOT_FOUND = "Comment not found";
const COMMENTS_SETTINGS_KEY = "comment_settings";

/** Per IP and per email, in ten minutes. */
const RATE_LIMIT = { ip: 6, email: 4, windowSeconds: 600 };

// ---- Settings ----

export async function readCommentSettings(db: Db): Promise<CommentSettings> {
  return (await readJsonSetting(db, COMMENTS_SETTINGS_KEY, commentSettingsSchema)) ?? commentSettingsSchema.parse({});
}

export async function saveCommentSettings(db: Db, actor: Actor | null, input: unknown): Promise<CommentSettings> {
  authorize(actor, canModerateComments, COMMENTS_FORBIDDEN);
  const settings = parseOrThrow(commentSettingsSchema, input);
  await db.transaction(async (tx) => {
    await writeJsonSetting(tx, COMMENTS_SETTINGS_KEY, settings);
    await bumpContentVersion(tx);
  });
  return settings;
}

/** Turns comments off (or on again) for one post. */
export async function setPostCommentsClosed(db: Db, actor: Actor | null, postId: string, closed: boolean): Promise<void> {
  authorize(actor, canModerateComments, COMMENTS_FORBIDDEN);
  await db.transaction(async (tx) => {
    if (closed) await tx.insert(commentsClosedPosts).values({ postId }).onConflictDoNothing();
    else await tx.delete(commentsClosedPosts).where(eq(commentsClosedPosts.postId, postId));
    await bumpContentVersion(tx);
  });
}

/**
 * Whether a post or page takes comments now: the site's switch, its own, and for a post the age
 * limit (a page has no publication date: its switch alone decides).
 */
export function commentsOpen(
  settings: CommentSettings,
  post: { kind?: CommentSubjectRef["kind"]; publishedAt: Date | null; closed: boolean },
  now = new Date(),
): boolean {
  if (!settings.enabled || post.closed) return false;
  if (post.kind === "page") return true;
  if (!post.publishedAt) return false;
  if (settings.closeAfterDays === 0) return true;
  return now.getTime() - post.publishedAt.getTime() < settings.closeAfterDays * 86_400_000;
}

// ---- The thread on the post page ----

/** Comments and Webmention replies make the thread; likes, reposts and plain mentions are listed apart. */
const threadKinds = sql`(${comments.mentionKind} is null or ${comments.mentionKind} = 'reply')`;

/** A post's approved likes, reposts and mentions from other sites, oldest first. */
export async function postMentions(db: Db, postId: string): Promise<MentionView[]> {
  const rows = await db
    .select({
      id: comments.id,
      kind: comments.mentionKind,
      authorName: comments.authorName,
      authorUrl: comments.authorUrl,
      source: comments.sourceUrl,
      createdAt: comments.createdAt,
    })
    .from(comments)
    .where(and(eq(comments.postId, postId), eq(comments.state, "approved"), sql`not ${threadKinds}`))
    .orderBy(asc(comments.createdAt), asc(comments.id));
  return rows.flatMap((row) =>
    row.kind && row.kind !== "reply" && row.source
      ? [{ ...row, kind: row.kind, source: row.source, createdAt: row.createdAt.toISOString() }]
      : [],
  );
}

/** The approved comments of a post or page, two levels deep: deeper replies join their top comment's replies, saying whom they answer. */
export async function commentThread(db: Db, subject: CommentSubjectRef, newestFirst: boolean) {
  const rows = await db
    .select({
      id: comments.id,
      parentId: comments.parentId,
      authorName: comments.authorName,
      authorUrl: comments.authorUrl,
      staff: sql<boolean>`${comments.authorUserId} is not null`,
      html: comments.bodyHtml,
      createdAt: comments.createdAt,
      source: comments.sourceUrl,
      fediverseHandle: comments.fediverseHandle,
      avatarKey: comments.authorAvatarKey,
    })
    .from(comments)
    .where(and(onSubject(subject), eq(comments.state, "approved"), threadKinds))
    .orderBy(asc(comments.createdAt), asc(comments.id));
  const byId = new Map(rows.map((row) => [row.id, row]));
  const views = new Map<string, CommentView>();
  const top: CommentView[] = [];
  const rootOf = (id: string): string => {
    let current = byId.get(id);
    for (let depth = 0; current?.parentId && byId.has(current.parentId) && depth < 1000; depth++) current = byId.get(current.parentId);
    return current?.id ?? id;
  };
  for (const row of rows) {
    const parent = row.parentId ? byId.get(row.parentId) : undefined;
    const view: CommentView = {
      id: row.id,
      authorName: row.authorName,
      authorUrl: row.authorUrl,
      staff: row.staff,
      html: row.html,
      createdAt: row.createdAt.toISOString(),
      source: row.source,
      fediverseHandle: row.fediverseHandle,
      avatar: row.avatarKey ? publicUploadUrl(row.avatarKey) : null,
      replyingTo: null,
      replies: [],
    };
    views.set(row.id, view);
    if (!parent) {
      top.push(view);
      continue;
    }
    const root = views.get(rootOf(row.id));
    if (!root) continue;
    if (parent.id !== root.id) view.replyingTo = parent.authorName;
    root.replies.push(view);
  }
  if (newestFirst) top.reverse();
  return { comments: top, count: rows.length };
}

/** The approved comments of each post, for listing cards: posts with none are left out. */
export async function approvedCommentCounts(db: Db, postIds: readonly string[]): Promise<Map<string, number>> {
  if (postIds.length === 0) return new Map();
  const rows = await db
    .select({ postId: comments.postId, count: sql<number>`count(*)::int`.mapWith(Number) })
    .from(comments)
    .where(and(inArray(comments.postId, [...postIds]), eq(comments.state, "approved"), threadKinds))
    .groupBy(comments.postId);
  return new Map(rows.flatMap((row) => (row.postId ? [[row.postId, row.count] as const] : [])));
}

/** What a post's or page's comments section needs: the thread, the mentions, whether the form is open. */
async function commentsView(db: Db, subject: CommentSubjectRef, state: { published: boolean; publishedAt: Date | null; closed: boolean }) {
  const settings = await readCommentSettings(db);
  const [thread, mentions] = await Promise.all([
    commentThread(db, subject, settings.newestFirst),
    // Webmentions and the fediverse answer posts only.
    subject.kind === "post" ? postMentions(db, subject.id) : Promise.resolve([]),
  ]);
  return {
    subject,
    open: state.published && commentsOpen(settings, { kind: subject.kind, ...state }),
    newestFirst: settings.newestFirst,
    stamp: await makeStamp(db),
    verification: getVerificationConfig(),
    mentions,
    ...thread,
  };
}

/** What the post page needs to draw its comments section. */
export async function postCommentsView(db: Db, post: { id: string; publishedAt: Date | null; published: boolean }) {
  const closed = await db
    .select({ postId: commentsClosedPosts.postId })
    .from(commentsClosedPosts)
    .where(eq(commentsClosedPosts.postId, post.id));
  return commentsView(db, { kind: "post", id: post.id }, { ...post, closed: closed.length > 0 });
}

/** What one of the owner's pages needs to draw its comments section (null: comments are off on it). */
export async function pageCommentsView(db: Db, page: { id: string; published: boolean; commentsEnabled: boolean }) {
  if (!page.commentsEnabled) return null;
  return commentsView(db, { kind: "page", id: page.id }, { published: page.published, publishedAt: null, closed: false });
}

/** The post or page a comment form names, published; else a 404. */
async function publishedSubject(db: Db, subject: CommentSubjectRef | null): Promise<CommentSubject> {
  const found = subject ? await findCommentSubject(db, subject) : undefined;
  if (!found || !found.published) throw new NotFoundError(`This ${subject?.kind ?? "post"} does not exist.`);
  return found;
}

/** The reply form's page (/comments?post=…&replyTo=…, or ?page=…, for readers without JavaScript): the post or page and the comment answered. */
export async function replyFormView(db: Db, subject: CommentSubjectRef | null, parentId: string) {
  const post = await publishedSubject(db, subject);
  const [parent] = await db
    .select({ id: comments.id, authorName: comments.authorName, html: comments.bodyHtml })
    .from(comments)
    .where(and(eq(comments.id, commentId(parentId)), onSubject(post), eq(comments.state, "approved")));
  if (!parent) throw new NotFoundError(COMMENT_NOT_FOUND);
  const open = commentsOpen(await readCommentSettings(db), post);
  return {
    post: { kind: post.kind, id: post.id, title: post.title, path: post.path },
    parent,
    open,
    stamp: await makeStamp(db),
    verification: getVerificationConfig(),
  };
}

export type PostCommentsView = Awaited<ReturnType<typeof postCommentsView>>;

// ---- Submitting ----

export interface SubmittedComment {
  id: string;
  state: CommentState;
  /** Lets the same browser edit or delete the comment for 15 minutes. */
  editToken: string;
  /** The post or page it is on. */
  post: { title: string; path: string };
  /** Mail works: a reader whose email is not confirmed yet was sent the link (said the same way for every reader). */
  confirmationMailed: boolean;
}

async function readBlocks(db: Db) {
  return db.select({ kind: commentBlocks.kind, value: commentBlocks.value }).from(commentBlocks);
}

/**
 * A reader's (or a signed-in staff member's) comment: validate → comments open → rate limits →
 * proof of work → the filters decide published, waiting or spam. A filled honeypot is answered like a
 * comment waiting for moderation, but nothing is stored.
 */
export async function submitComment(
  db: Db,
  actor: (Actor & { email: string; name: string }) | null,
  body: unknown,
  ip: string,
  siteUrl: string,
): Promise<SubmittedComment> {
  const staff = canEdit(actor);
  // A staff member's identity is their account's, whatever the form says.
  const filled =
    staff && actor && typeof body === "object" && body !== null ? { ...body, name: actor.name || actor.email, email: actor.email } : body;
  const input = parseOrThrow(commentRequestSchema, filled, "Please correct the highlighted fields.");
  const post = await publishedSubject(db, subjectOf({ post: input.postId, page: input.pageId }));
  if (!commentsOpen(await readCommentSettings(db), post)) throw new ForbiddenError(COMMENT_TEXTS.closed);
  const email = input.email.toLowerCase();
  if (!staff) {
    await enforceRateLimits(
      db,
      [
        { key: `comment:ip:${ip}`, limit: RATE_LIMIT.ip, windowSeconds: RATE_LIMIT.windowSeconds },
        { key: `comment:email:${mailboxOf(email)}`, limit: RATE_LIMIT.email, windowSeconds: RATE_LIMIT.windowSeconds },
      ],
      COMMENT_TEXTS.rateLimited,
    );
  }
  const postRef = { title: post.title, path: post.path };
  const confirmationMailed = !staff && (await isMailConfigured(db));
  if (input[COMMENT_HONEYPOT]) {
    logger.warn({ ip }, "comment honeypot filled; submission dropped");
    return { id: crypto.randomUUID(), state: "pending", editToken: "", post: postRef, confirmationMailed };
  }
  // Without JavaScript there is no proof of work: such a comment waits for a moderator. A token that is
  // present must be valid.
  const proofOfWork = staff || input.verificationToken !== "";
  if (!staff && input.verificationToken) await verifyHumanToken(db, input.verificationToken, ip);
  if (input.parentId) {
    const [parent] = await db
      .select({ id: comments.id })
      .from(comments)
      .where(and(eq(comments.id, input.parentId), onSubject(post)));
    if (!parent) throw new ValidationError("The comment you answer does not exist any more.");
  }
  const age = staff ? MIN_SUBMIT_MS : await stampAge(db, input.stamp);
  const trusted = !staff && (await isTrustedCommenter(db, email));
  const text = `${input.name}\n${input.url ?? ""}\n${input.body}`;
  const spamScore = staff ? 0 : await scoreComment(db, text);
  const settings = await readCommentSettings(db);
  let verdict: Verdict = assessComment(
    {
      body: input.body,
      authorName: input.name,
      authorEmail: email,
      authorUrl: input.url,
      ip,
      spamScore,
      knownAuthor: trusted,
      proofOfWork,
      staff,
    },
    await readBlocks(db),
    settings.linkLimit,
  );
  if (verdict.state === "approved" && (age === null || age < MIN_SUBMIT_MS))
    verdict = { state: "pending", reason: age === null ? "The form's time stamp is missing" : "Sent within seconds of the page loading" };
  if (verdict.state === "pending" && verdict.reason === UNKNOWN_AUTHOR_REASON && (await hasApprovedComment(db, email)))
    verdict = { state: "pending", reason: "Not set to auto-approve (approved before)" };
  const bodyHtml = await renderCommentMarkdown(input.body, siteUrl);
  const row = await db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(comments)
      .values({
        ...subjectValues(post),
        parentId: input.parentId,
        authorName: input.name,
        authorEmail: email,
        authorUrl: staff ? null : input.url,
        authorUserId: staff && actor ? actor.id : null,
        body: input.body,
        bodyHtml,
        state: verdict.state,
        reason: verdict.state === "approved" ? null : verdict.reason,
        spamScore,
        ipAddress: ip,
        notifyReplies: input.notify,
        approvedAt: verdict.state === "approved" ? new Date() : null,
      })
      .returning({ id: comments.id });
    if (!inserted) throw new Error("comment insert returned no row");
    if (verdict.state === "approved") {
      await bumpContentVersion(tx);
      await queueReplyMail(tx, inserted.id);
    } else if (verdict.state === "pending") {
      await ownerCommentMail.enqueueFor(tx, inserted.id);
    }
    // Never for a comment filed as spam: the form must not become a way to mail strangers.
    if (confirmationMailed && verdict.state !== "spam") await queueCommentConfirmation(tx, email);
    return inserted;
  });
  logger.info({ id: row.id, state: verdict.state }, "comment stored");
  return { id: row.id, state: verdict.state, editToken: await signComment(db, "edit", row.id), post: postRef, confirmationMailed };
}

async function hasApprovedComment(db: Db, email: string): Promise<boolean> {
  const [row] = await db
    .select({ id: comments.id })
    .from(comments)
    .where(and(eq(comments.authorEmail, email), eq(comments.state, "approved")))
    .limit(1);
  return Boolean(row);
}

/** The reply notification for an approved reply, once per reply (the outbox key). */
async function queueReplyMail(tx: Db, replyId: string): Promise<void> {
  const [row] = await tx
    .select({ parentEmail: sql<string | null>`p.author_email`, notify: sql<boolean | null>`p.notify_replies`, email: comments.authorEmail })
    .from(comments)
    .leftJoin(sql`${comments} as p`, sql`p.id = ${comments.parentId}`)
    .where(eq(comments.id, replyId));
  if (!row?.parentEmail || !row.notify || row.parentEmail === row.email) return;
  await replyCommentMail.enqueue(tx, { to: row.parentEmail, payload: { replyId } }, { key: `comment-reply:${replyId}` });
}

/** A comment id from an address or a form: anything but a UUID names no comment (404, never a database error). */
function commentId(id: string): string {
  if (!z.uuid().safeParse(id).success) throw new NotFoundError(COMMENT_NOT_FOUND);
  return id;
}

// ---- The commenter's 15 minutes ----

async function ownComment(db: Db, id: string, token: string) {
  const [row] = await db
    .select({
      id: comments.id,
      body: comments.body,
      state: comments.state,
      createdAt: comments.createdAt,
      postId: comments.postId,
      pageId: comments.pageId,
    })
    .from(comments)
    .where(eq(comments.id, commentId(id)));
  if (!row || !(await checkCommentSignature(db, "edit", id, token))) throw new NotFoundError(COMMENT_NOT_FOUND);
  if (Date.now() - row.createdAt.getTime() > EDIT_WINDOW_MS)
    throw new ForbiddenError("The 15 minutes to edit or delete this comment are over.");
  return row;
}

/** The comment a commenter may still edit, for the edit page. */
export async function commentForOwnEdit(db: Db, id: string, token: string) {
  const row = await ownComment(db, id, token);
  const subject = await findCommentSubject(db, subjectRefOf(row));
  return { id: row.id, body: row.body, post: subject ? { title: subject.title, path: subject.path } : null };
}

export async function editOwnComment(db: Db, id: string, token: string, input: unknown, siteUrl: string): Promise<void> {
  await rewriteComment(db, await ownComment(db, id, token), input, siteUrl);
}

export async function deleteOwnComment(db: Db, id: string, token: string): Promise<void> {
  await removeComment(db, await ownComment(db, id, token));
}

/** One-click unsubscribe from reply mail: every comment of that reader's email stops notifying. */
export async function unsubscribeReplies(db: Db, id: string, token: string): Promise<void> {
  if (!(await checkCommentSignature(db, "unsubscribe", id, token))) throw new NotFoundError("This unsubscribe link is not valid.");
  const [row] = await db
    .select({ email: comments.authorEmail })
    .from(comments)
    .where(eq(comments.id, commentId(id)));
  if (!row) return;
  await db.update(comments).set({ notifyReplies: false }).where(eq(comments.authorEmail, row.email));
}

// ---- Moderation ----

export const COMMENT_PAGE_SIZE = 50;

/** A queue (pending, approved, spam), newest first, with the count of every queue. */
export async function listCommentQueue(db: Db, actor: Actor | null, state: CommentState) {
  authorize(actor, canModerateComments, COMMENTS_FORBIDDEN);
  const rows = await db
    .select({
      id: comments.id,
      authorName: comments.authorName,
      authorEmail: comments.authorEmail,
      authorUrl: comments.authorUrl,
      staff: sql<boolean>`${comments.authorUserId} is not null`,
      body: comments.body,
      html: comments.bodyHtml,
      reason: comments.reason,
      ipAddress: comments.ipAddress,
      createdAt: comments.createdAt,
      postId: comments.postId,
      ...subjectColumns,
      postClosed: sql<boolean>`exists (select 1 from ${commentsClosedPosts} where ${commentsClosedPosts.postId} = ${comments.postId})`,
      authorConfirmed: sql<boolean>`${commentAuthors.confirmedAt} is not null`,
      authorTrusted: sql<boolean>`coalesce(${trustedAuthor}, false)`,
      source: comments.sourceUrl,
      avatarKey: comments.authorAvatarKey,
    })
    .from(comments)
    .leftJoin(blogPosts, eq(blogPosts.id, comments.postId))
    .leftJoin(ownerPages, eq(ownerPages.id, comments.pageId))
    .leftJoin(commentAuthors, eq(commentAuthors.email, comments.authorEmail))
    .where(eq(comments.state, state))
    .orderBy(desc(comments.createdAt), desc(comments.id))
    .limit(COMMENT_PAGE_SIZE);
  const counts = await commentQueueCounts(db);
  return {
    comments: rows.map(({ postTitle, pageTitle, postCategory, postSlug, pageAddress, avatarKey, ...row }) => ({
      ...row,
      avatar: avatarKey ? publicUploadUrl(avatarKey) : null,
      subjectTitle: subjectTitle({ postTitle, pageTitle }),
      subjectPath: subjectPath({ postCategory, postSlug, pageAddress }),
    })),
    counts,
  };
}

export type QueuedComment = Awaited<ReturnType<typeof listCommentQueue>>["comments"][number];

export async function commentQueueCounts(db: Db): Promise<Record<CommentState, number>> {
  const rows = await db
    .select({ state: comments.state, n: sql<number>`count(*)::int` })
    .from(comments)
    .groupBy(comments.state);
  const counts: Record<CommentState, number> = { pending: 0, approved: 0, spam: 0 };
  for (const row of rows) counts[row.state] = row.n;
  return counts;
}

/** The sidebar's count of comments waiting, as a column of the caller's statement. */
export function pendingCommentsCountOf(actor: Actor | null) {
  authorize(actor, canModerateComments, COMMENTS_FORBIDDEN);
  return sql<number>`(select count(*)::int from ${comments} where ${comments.state} = 'pending')`.mapWith(Number);
}

async function commentRow(db: Db, id: string) {
  const [row] = await db
    .select({
      id: comments.id,
      state: comments.state,
      body: comments.body,
      name: comments.authorName,
      email: comments.authorEmail,
      url: comments.authorUrl,
      postId: comments.postId,
      pageId: comments.pageId,
    })
    .from(comments)
    .where(eq(comments.id, commentId(id)));
  if (!row) throw new NotFoundError(COMMENT_NOT_FOUND);
  return row;
}

/**
 * Approve or mark as spam. Each decision trains the filter (a reversed decision is unlearned first);
 * approving publishes the comment and sends the reply notification it owes, once.
 */
export async function moderateComment(db: Db, actor: Actor | null, id: string, state: "approved" | "spam"): Promise<void> {
  authorize(actor, canModerateComments, COMMENTS_FORBIDDEN);
  await applyModeration(db, id, state);
}

/** The moderation itself, for a moderator or a signed link from the owner's email. */
async function applyModeration(db: Db, id: string, state: "approved" | "spam"): Promise<void> {
  const row = await commentRow(db, id);
  if (row.state === state) return;
  const text = `${row.name}\n${row.url ?? ""}\n${row.body}`;
  await db.transaction(async (tx) => {
    await tx
      .update(comments)
      .set({ state, reason: null, approvedAt: state === "approved" ? new Date() : null })
      .where(eq(comments.id, commentId(id)));
    if (row.state !== "pending") await trainComment(tx, text, row.state === "spam", -1);
    await trainComment(tx, text, state === "spam");
    if (state === "approved") await queueReplyMail(tx, id);
    // Spam under a trusted email (someone else may be using it): its comments wait again.
    if (state === "spam" && row.email) await setCommentAuthorTrust(tx, row.email, false);
    if (state === "approved" || row.state === "approved") await bumpContentVersion(tx);
  });
}

export const TRUST_NEEDS_CONFIRMATION =
  "This person has not confirmed their email yet: auto-approve is possible once they open the link emailed after their comment.";

/**
 * "Auto-approve this person": the comment's email, once confirmed, skips the "first comment" hold from
 * now on; the comment itself is approved if it waits.
 */
export async function trustCommentAuthor(db: Db, actor: Actor | null, id: string): Promise<string> {
  authorize(actor, canModerateComments, COMMENTS_FORBIDDEN);
  const row = await commentRow(db, id);
  if (!row.email) throw new ConflictError("This comment came from another site and has no email to trust.");
  if (row.state === "spam") throw new ConflictError("Mark the comment as not spam before auto-approving its author.");
  await db.transaction(async (tx) => {
    if (!(await setCommentAuthorTrust(tx, row.email, true))) throw new ConflictError(TRUST_NEEDS_CONFIRMATION);
    await recordAudit(tx, { actor, action: "comments.author.trust", target: { type: "comment", id: row.id }, summary: row.email });
  });
  if (row.state === "pending") await applyModeration(db, id, "approved");
  return row.email;
}

/** Stops auto-approving an email (from a comment in the queue or the list of auto-approved people). */
export async function untrustCommentAuthor(db: Db, actor: Actor | null, email: string): Promise<void> {
  authorize(actor, canModerateComments, COMMENTS_FORBIDDEN);
  await db.transaction(async (tx) => {
    await setCommentAuthorTrust(tx, email.toLowerCase(), false);
    await recordAudit(tx, { actor, action: "comments.author.untrust", summary: email.toLowerCase() });
  });
}

/** The emails whose comments skip moderation's first-comment hold. */
export async function listTrustedCommenters(db: Db, actor: Actor | null) {
  authorize(actor, canModerateComments, COMMENTS_FORBIDDEN);
  return trustedCommenters(db);
}

/** Approve or spam from the owner's email: the link is signed for that comment and that decision. */
export async function moderateBySignedLink(db: Db, id: string, decision: "approve" | "spam", token: string): Promise<void> {
  if (!(await checkCommentSignature(db, decision === "approve" ? "moderate-approve" : "moderate-spam", id, token)))
    throw new NotFoundError("This moderation link is not valid.");
  await applyModeration(db, id, decision === "approve" ? "approved" : "spam");
}

export async function deleteComment(db: Db, actor: Actor | null, id: string): Promise<void> {
  authorize(actor, canModerateComments, COMMENTS_FORBIDDEN);
  await removeComment(db, await commentRow(db, id));
}

export async function editComment(db: Db, actor: Actor | null, id: string, input: unknown, siteUrl: string): Promise<void> {
  authorize(actor, canModerateComments, COMMENTS_FORBIDDEN);
  await rewriteComment(db, await commentRow(db, id), input, siteUrl);
}

/** A new body for a comment (by its writer or a moderator); public pages change only if it is published. */
async function rewriteComment(db: Db, row: { id: string; state: CommentState }, input: unknown, siteUrl: string): Promise<void> {
  const { body } = parseOrThrow(commentBodySchema, input);
  const bodyHtml = await renderCommentMarkdown(body, siteUrl);
  await db.transaction(async (tx) => {
    await tx.update(comments).set({ body, bodyHtml, updatedAt: new Date() }).where(eq(comments.id, row.id));
    if (row.state === "approved") await bumpContentVersion(tx);
  });
}

/** Deletes a comment (by its writer or a moderator); public pages change only if it was published. */
async function removeComment(db: Db, row: { id: string; state: CommentState }): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(comments).where(eq(comments.id, row.id));
    if (row.state === "approved") await bumpContentVersion(tx);
  });
}

/** A reply as the author (the signed-in staff member): published at once, marked "Author"; approves the comment it answers. */
export async function replyAsAuthor(
  db: Db,
  actor: (Actor & { email: string; name: string }) | null,
  parentId: string,
  input: unknown,
  siteUrl: string,
) {
  authorize(actor, canModerateComments, COMMENTS_FORBIDDEN);
  if (!actor) throw new ForbiddenError(COMMENTS_FORBIDDEN);
  const parent = await commentRow(db, parentId);
  if (parent.state === "spam") throw new ConflictError("Mark the comment as not spam before replying to it.");
  if (parent.state === "pending") await applyModeration(db, parentId, "approved");
  const { body } = parseOrThrow(commentBodySchema, input);
  const bodyHtml = await renderCommentMarkdown(body, siteUrl);
  await db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(comments)
      .values({
        ...subjectValues(subjectRefOf(parent)),
        parentId,
        authorName: actor.name || actor.email,
        authorEmail: actor.email.toLowerCase(),
        authorUserId: actor.id,
        body,
        bodyHtml,
        state: "approved",
        approvedAt: new Date(),
      })
      .returning({ id: comments.id });
    if (!inserted) throw new Error("reply insert returned no row");
    await queueReplyMail(tx, inserted.id);
    await bumpContentVersion(tx);
  });
}

/** Adds a block-list entry (an email or domain, an IP or CIDR range, a keyword, a host or a fediverse account). */
export async function addCommentBlock(db: Db, actor: Actor | null, kind: CommentBlockKind, value: string): Promise<void> {
  authorize(actor, canModerateComments, COMMENTS_FORBIDDEN);
  const clean = value.trim().toLowerCase();
  if (!clean || clean.length > 200) throw new ValidationError("Enter a value of at most 200 characters to block.");
  if (kind === "ip" && !/^[0-9a-f.:]+(\/\d{1,3})?$/.test(clean))
    throw new ValidationError("Enter an IP address or a range like 203.0.113.0/24.");
  // A blocked instance or account stops following the site too.
  if (kind === "host" || kind === "actor") await db.transaction((tx) => addFediverseBlock(tx, { kind, value: clean }));
  else await db.insert(commentBlocks).values({ kind, value: clean }).onConflictDoNothing();
}

export async function removeCommentBlock(db: Db, actor: Actor | null, kind: CommentBlockKind, value: string): Promise<void> {
  authorize(actor, canModerateComments, COMMENTS_FORBIDDEN);
  await db.delete(commentBlocks).where(and(eq(commentBlocks.kind, kind), eq(commentBlocks.value, value)));
}

export async function listCommentBlocks(db: Db, actor: Actor | null) {
  authorize(actor, canModerateComments, COMMENTS_FORBIDDEN);
  return db
    .select({ kind: commentBlocks.kind, value: commentBlocks.value })
    .from(commentBlocks)
    .orderBy(asc(commentBlocks.kind), asc(commentBlocks.value));
}

/** Blocks the email or the IP of a comment and files it as spam. */
export async function blockCommentAuthor(db: Db, actor: Actor | null, id: string, by: "email" | "ip"): Promise<void> {
  authorize(actor, canModerateComments, COMMENTS_FORBIDDEN);
  const [row] = await db
    .select({ email: comments.authorEmail, ip: comments.ipAddress })
    .from(comments)
    .where(eq(comments.id, commentId(id)));
  if (!row) throw new NotFoundError(COMMENT_NOT_FOUND);
  const value = by === "email" ? row.email : row.ip;
  if (!value) throw new ConflictError("This comment has no IP address to block.");
  await addCommentBlock(db, actor, by, value);
  await applyModeration(db, id, "spam");
}

// ---- Webmentions (verified by the webmentions feature, filed here like comments) ----

export interface VerifiedMention {
  postId: string;
  source: string;
  kind: MentionKind;
  authorName: string;
  authorUrl: string | null;
  /** The entry's text; empty for a like or a repost. */
  content: string;
  /** The address the Webmention was sent from. */
  ip: string;
  /** A reply, like or boost from the fediverse (ActivityPub): the author's handle, user@host. */
  fediverseHandle?: string;
  /** The author's picture on their server (actor icon, h-card photo): copied to ours by a job, never shown. */
  photoUrl?: string | null;
}

/**
 * A verified Webmention, filed in the comments table and the same queue: the block list (host, IP,
 * keyword), the spam filter and the link limit apply; the proof of work is the source page itself. A
 * source host with an approved mention before is a known author. A second mention from the same
 * source updates the first (and is judged again).
 */
export async function fileMention(db: Db, mention: VerifiedMention, siteUrl: string): Promise<{ id: string; state: CommentState }> {
  const host = new URL(mention.source).host;
  const [previous] = await db
    .select({ id: comments.id, state: comments.state })
    .from(comments)
    .where(and(eq(comments.postId, mention.postId), eq(comments.sourceUrl, mention.source)));
  const [known] = await db
    .select({ id: comments.id })
    .from(comments)
    .where(and(eq(comments.state, "approved"), sql`${comments.sourceUrl} like ${`${new URL(mention.source).origin}/%`}`))
    .limit(1);
  const body = mention.content;
  const text = `${mention.authorName}\n${mention.authorUrl ?? ""}\n${body}`;
  const spamScore = body ? await scoreComment(db, text) : 0.5;
  const verdict = assessComment(
    {
      body: `${body}\n${mention.source}`,
      authorName: mention.authorName,
      authorEmail: "",
      authorUrl: mention.authorUrl,
      ip: mention.ip,
      spamScore,
      knownAuthor: Boolean(known) || previous?.state === "approved",
      proofOfWork: true,
      staff: false,
    },
    await readBlocks(db),
    // The source's own address is one link more than the reader wrote.
    (await readCommentSettings(db)).linkLimit + 1,
  );
  const first = mention.fediverseHandle ? `First reply from ${host} (fediverse)` : `First mention from ${host}`;
  const reason = verdict.state === "approved" ? null : verdict.reason.replace(UNKNOWN_AUTHOR_REASON, first);
  const bodyHtml = body ? await renderCommentMarkdown(body, siteUrl) : "";
  const values = {
    authorName: mention.authorName,
    authorUrl: mention.authorUrl,
    body,
    bodyHtml,
    mentionKind: mention.kind,
    fediverseHandle: mention.fediverseHandle ?? null,
    state: verdict.state,
    reason,
    spamScore,
    ipAddress: mention.ip,
    updatedAt: new Date(),
    approvedAt: verdict.state === "approved" ? new Date() : null,
  };
  // Only replies show their author (likes, reposts and mentions are a line under "Mentions").
  const photo = mention.kind === "reply" ? remotePhotoUrl(mention.photoUrl) : null;
  return db.transaction(async (tx) => {
    const picture = { authorPhotoUrl: photo, authorAvatarKey: await avatarFor(tx, photo) };
    const [row] = await tx
      .insert(comments)
      .values({ ...values, ...picture, postId: mention.postId, sourceUrl: mention.source, authorEmail: "" })
      .onConflictDoUpdate({ target: [comments.postId, comments.sourceUrl], set: { ...values, ...picture } })
      .returning({ id: comments.id });
    if (!row) throw new Error("mention upsert returned no row");
    if (verdict.state === "approved" || previous?.state === "approved") await bumpContentVersion(tx);
    if (verdict.state === "pending") await ownerCommentMail.enqueueFor(tx, row.id);
    logger.info({ id: row.id, state: verdict.state, kind: mention.kind, host }, "webmention filed");
    return { id: row.id, state: verdict.state };
  });
}

/**
 * A reply, like or boost withdrawn on the fediverse (Delete, Undo): the mention whose source it is
 * leaves every post, if `origin` (the remote actor's) is where that source lives.
 */
export async function removeFediverseMention(db: Db, source: string, origin: string): Promise<number> {
  if (!URL.canParse(source) || new URL(source).origin !== origin) return 0;
  const rows = await db
    .select({ id: comments.id, state: comments.state })
    .from(comments)
    .where(and(eq(comments.sourceUrl, source), sql`${comments.fediverseHandle} is not null`));
  for (const row of rows) await removeComment(db, row);
  return rows.length;
}

/** The source is gone (410) or no longer links to the post: its mention leaves the page and the queue. */
export async function removeMention(db: Db, postId: string, source: string): Promise<boolean> {
  const [row] = await db
    .select({ id: comments.id, state: comments.state })
    .from(comments)
    .where(and(eq(comments.postId, postId), eq(comments.sourceUrl, source)));
  if (!row) return false;
  await removeComment(db, row);
  logger.info({ id: row.id, host: new URL(source).host }, "webmention removed");
  return true;
}
