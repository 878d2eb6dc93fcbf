import { createHash } from "node:crypto";
import { and, desc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { readSiteSettings } from "~/features/settings/settings.server";
import { emailSiteUrl } from "~/features/settings/site-url.server";
import { parseCategory, postPath } from "~/lib/categories";
import { canManageSettings, type Actor } from "~/lib/permissions";
import { recordAudit } from "~/server/audit.server";
import { authorize } from "~/server/authorize.server";
import type { Db } from "~/server/db/client.server";
import { appSettings, blogPosts, commentBlocks, fediverseFollowers, fediverseInstances, fediversePosts } from "~/server/db/schema.server";
import { NotFoundError, parseOrThrow, ValidationError } from "~/server/errors.server";
import { defineJob, PermanentJobError } from "~/server/jobs/jobs.server";
import { defineRecurringTask } from "~/server/jobs/recurring.server";
import { logger } from "~/server/logger.server";
import { outboundFetch, OutboundFetchError, type OutboundResponse } from "~/server/outbound-fetch.server";
import { APP_VERSION } from "~/server/version.server";
import { DEFAULT_HANDLE, FEDIVERSE_TEXTS, fediverseSettingsSchema, type FediverseSettings } from "./fediverse-schema";
import { makeKeyPair, signRequestAs, type KeyPair, type SignatureStyle } from "./http-signature.server";

/**
 * The site's ActivityPub actor (docs/decisions/0072-activitypub.md): one actor for the blog, found by
 * WebFinger as @{handle}@{site host}, followed from Mastodon and the rest of the fediverse. Every
 * address it gives out starts with the configured site address (never a request's Host header), so
 * all instances and all background jobs name the same actor.
 */

export const ACTIVITY_JSON = "application/activity+json";
export const ACTIVITY_ACCEPT = `${ACTIVITY_JSON}, application/ld+json; profile="https://www.w3.org/ns/activitystreams"`;
export const AS_PUBLIC = "https://www.w3.org/ns/activitystreams#Public";
const CONTEXT = ["https://www.w3.org/ns/activitystreams", "https://w3id.org/security/v1"];
export const FEDIVERSE_USER_AGENT = `7fs-portfolio/${APP_VERSION} (ActivityPub)`;
/** A delivery or a fetch from another instance: one deadline and a byte cap, through the outbound guard. */
export const FEDIVERSE_LIMITS = { timeoutMs: 10_000, maxBytes: 512_000 } as const;

const SETTINGS_KEY = "fediverse";
const KEYS_KEY = "fediverse_keys";

/** A JSON document for other servers (and browsers' scripts: it is public). */
export function fediverseJson(data: unknown, type: string = ACTIVITY_JSON): Response {
  return new Response(JSON.stringify(data), {
    headers: {
      "content-type": `${type}; charset=utf-8`,
      "cache-control": "public, max-age=60",
      "access-control-allow-origin": "*",
      vary: "Accept",
    },
  });
}

/** A browser asking for a document's address gets the page instead (Accept without a JSON type). */
export function wantsHtml(request: Request): boolean {
  const accept = request.headers.get("accept") ?? "";
  return accept.includes("text/html") && !/activity\+json|ld\+json|application\/json/.test(accept);
}

// ---- Settings and keys ----

async function readSetting(db: Db, key: string): Promise<unknown> {
  const [row] = await db.select({ value: appSettings.value }).from(appSettings).where(eq(appSettings.key, key));
  try {
    return row ? JSON.parse(row.value) : null;
  } catch {
    return null;
  }
}

export async function readFediverseSettings(db: Db): Promise<FediverseSettings> {
  const parsed = fediverseSettingsSchema.safeParse(await readSetting(db, SETTINGS_KEY));
  return parsed.success ? parsed.data : { handle: DEFAULT_HANDLE };
}

export async function saveFediverseSettings(db: Db, actor: Actor | null, input: unknown): Promise<FediverseSettings> {
  authorize(actor, canManageSettings, FEDIVERSE_TEXTS.forbidden);
  const settings = parseOrThrow(fediverseSettingsSchema, input, FEDIVERSE_TEXTS.handleInvalid);
  // The handle being replaced is on record (so it keeps finding the actor) before it changes.
  await announceActorChanges(db);
  const value = JSON.stringify(settings);
  await db.transaction(async (tx) => {
    await tx
      .insert(appSettings)
      .values({ key: SETTINGS_KEY, value })
      .onConflictDoUpdate({ target: appSettings.key, set: { value, updatedAt: new Date() } });
    await recordAudit(tx, { actor, action: "settings.fediverse", summary: `fediverse handle set to ${settings.handle}` });
  });
  // Followers' instances learn the new handle now (an Update of the actor), not at the next check.
  await announceActorChanges(db);
  return settings;
}

const keysSchema = z.object({ publicKeyPem: z.string().min(1), privateKeyPem: z.string().min(1) });

/**
 * The actor's key pair, made on first use. Instances that race both insert; the first row wins and
 * everyone reads it back, so all of them sign with the same key.
 */
export async function siteKeys(db: Db): Promise<KeyPair> {
  const stored = keysSchema.safeParse(await readSetting(db, KEYS_KEY));
  if (stored.success) return stored.data;
  const made = await makeKeyPair();
  await db
    .insert(appSettings)
    .values({ key: KEYS_KEY, value: JSON.stringify(made) })
    .onConflictDoNothing();
  return keysSchema.parse(await readSetting(db, KEYS_KEY));
}

// ---- Addresses ----

export interface SiteIdentity {
  siteUrl: string;
  host: string;
  handle: string;
  actor: string;
  inbox: string;
  outbox: string;
  followers: string;
  keyId: string;
}

export async function siteIdentity(db: Db): Promise<SiteIdentity> {
  const [settings, { handle }] = await Promise.all([readSiteSettings(db), readFediverseSettings(db)]);
  const siteUrl = emailSiteUrl(settings);
  const actor = `${siteUrl}/ap/actor`;
  return {
    siteUrl,
    host: new URL(siteUrl).host,
    handle,
    actor,
    inbox: `${siteUrl}/ap/inbox`,
    outbox: `${siteUrl}/ap/outbox`,
    followers: `${siteUrl}/ap/followers`,
    keyId: `${actor}#main-key`,
  };
}

/** The post's ActivityPub object address: stable across renames of the post. */
export const postObjectId = (siteUrl: string, postId: string) => `${siteUrl}/ap/posts/${postId}`;

/** The post a local object address names (its id), or null. */
export function postIdOfObject(siteUrl: string, objectId: string): string | null {
  const prefix = `${siteUrl}/ap/posts/`;
  if (!objectId.startsWith(prefix)) return null;
  const id = objectId.slice(prefix.length);
  return z.uuid().safeParse(id).success ? id : null;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);
const absolute = (url: string, siteUrl: string) => (URL.canParse(url, siteUrl) ? new URL(url, siteUrl).href : null);

// ---- Documents ----

/**
 * The actor document (a Person: the owner's blog), with name, summary, avatar, header, links and key,
 * and `alsoKnownAs` its earlier addresses. Asked for at an earlier site address's host (`host`, as
 * the request names it), it is that earlier actor, with `movedTo` the current one
 * (docs/decisions/0087-fediverse-actor-move.md).
 */
export async function actorDocument(db: Db, host?: string) {
  const [id, settings, keys, history] = await Promise.all([siteIdentity(db), readSiteSettings(db), siteKeys(db), readFediverseHistory(db)]);
  const earlier =
    host && host.toLowerCase() !== id.host.toLowerCase()
      ? history.previousActors.find((actor) => new URL(actor).host.toLowerCase() === host.toLowerCase() && actor !== id.actor)
      : undefined;
  const at = earlier ? new URL(earlier).origin : id.siteUrl;
  const actor = earlier ?? id.actor;
  const icon = settings.portraitUrl ? absolute(settings.portraitUrl, id.siteUrl) : null;
  const header = settings.socialImageUrl ? absolute(settings.socialImageUrl, id.siteUrl) : null;
  const summary = settings.tagline || settings.bio || settings.headline;
  return {
    "@context": CONTEXT,
    id: actor,
    type: "Person",
    preferredUsername: id.handle,
    name: settings.siteName,
    summary: summary ? `<p>${escapeHtml(summary)}</p>` : "",
    url: id.siteUrl,
    inbox: `${at}/ap/inbox`,
    outbox: `${at}/ap/outbox`,
    followers: `${at}/ap/followers`,
    endpoints: { sharedInbox: `${at}/ap/inbox` },
    manuallyApprovesFollowers: false,
    discoverable: true,
    ...(earlier ? { movedTo: id.actor } : history.previousActors.length > 0 ? { alsoKnownAs: history.previousActors } : {}),
    ...(icon ? { icon: { type: "Image", url: icon } } : {}),
    ...(header ? { image: { type: "Image", url: header } } : {}),
    // Profile links, shown on Mastodon; rel="me" lets it verify the ones that link back.
    attachment: [{ label: "Website", url: id.siteUrl }, ...settings.socialLinks].slice(0, 4).map((link) => ({
      type: "PropertyValue",
      name: link.label,
      value: `<a href="${escapeHtml(link.url)}" rel="me nofollow noopener noreferrer" target="_blank">${escapeHtml(link.url)}</a>`,
    })),
    publicKey: { id: `${actor}#main-key`, owner: actor, publicKeyPem: keys.publicKeyPem },
  };
}

/**
 * WebFinger (RFC 7033) for `acct:{handle}@{host}` or the actor's own address; null when the resource
 * names no one here.
 */
export async function webfinger(db: Db, resource: string) {
  const [id, history] = await Promise.all([siteIdentity(db), readFediverseHistory(db)]);
  const acct = /^acct:([^@]+)@(.+)$/i.exec(resource.trim());
  // An earlier handle or site host still finds the actor: the answer names the current one.
  const handles = [id.handle, ...history.previousHandles].map((handle) => handle.toLowerCase());
  const hosts = [id.host, ...history.previousActors.map((actor) => new URL(actor).host)].map((host) => host.toLowerCase());
  const matches = acct
    ? handles.includes(acct[1]!.toLowerCase()) && hosts.includes(acct[2]!.toLowerCase())
    : resource === id.actor || resource === id.siteUrl || resource === `${id.siteUrl}/`;
  if (!matches) return null;
  return {
    subject: `acct:${id.handle}@${id.host}`,
    aliases: [id.actor, id.siteUrl],
    links: [
      { rel: "self", type: ACTIVITY_JSON, href: id.actor },
      { rel: "http://webfinger.net/rel/profile-page", type: "text/html", href: id.siteUrl },
    ],
  };
}

export async function nodeInfo(db: Db) {
  const [settings, [count]] = await Promise.all([
    readSiteSettings(db),
    db
      .select({ n: sql<number>`count(*)::int`.mapWith(Number) })
      .from(blogPosts)
      .where(eq(blogPosts.published, true)),
  ]);
  return {
    version: "2.1",
    software: { name: "seven-fs-site", version: APP_VERSION },
    protocols: ["activitypub"],
    services: { inbound: [], outbound: ["rss2.0"] },
    openRegistrations: false,
    usage: { users: { total: 1, activeMonth: 1, activeHalfyear: 1 }, localPosts: count?.n ?? 0 },
    metadata: { nodeName: settings.siteName },
  };
}

const postColumns = {
  id: blogPosts.id,
  title: blogPosts.title,
  slug: blogPosts.slug,
  category: blogPosts.category,
  excerpt: blogPosts.excerpt,
  contentHtml: blogPosts.contentHtml,
  contentText: blogPosts.contentText,
  featuredImageUrl: blogPosts.featuredImageUrl,
  featuredImageAlt: blogPosts.featuredImageAlt,
  publishedAt: blogPosts.publishedAt,
  updatedAt: blogPosts.updatedAt,
};
async function publishedPost(db: Db, postId: string) {
  if (!z.uuid().safeParse(postId).success) return undefined;
  const [post] = await db
    .select(postColumns)
    .from(blogPosts)
    .where(and(eq(blogPosts.id, postId), eq(blogPosts.published, true)));
  return post;
}

type FederatedPost = NonNullable<Awaited<ReturnType<typeof publishedPost>>>;

/** Relative links and images in the post's HTML made absolute: a follower's app reads it elsewhere. */
export function absoluteLinks(html: string, siteUrl: string): string {
  return html.replace(/\b(href|src)="(\/[^"/][^"]*|\/)"/g, (_match, name: string, path: string) => `${name}="${siteUrl}${path}"`);
}

/** What a follower's app shows when it shows only summaries: the excerpt, else the start of the text. */
function summaryOf(post: FederatedPost): string {
  const text = (post.excerpt?.trim() || post.contentText?.trim() || "").replace(/\s+/g, " ");
  return text.length <= 500 ? text : `${text.slice(0, 499).replace(/\s+\S*$/, "")}…`;
}

/** The post as an Article: title, summary, the full rendered HTML (already sanitized by the post renderer, images with their alt text) and its address. */
export function articleOf(post: FederatedPost, id: SiteIdentity) {
  const category = parseCategory(post.category);
  const url = category ? `${id.siteUrl}${postPath(category, post.slug)}` : id.siteUrl;
  const image = post.featuredImageUrl ? absolute(post.featuredImageUrl, id.siteUrl) : null;
  return {
    id: postObjectId(id.siteUrl, post.id),
    type: "Article",
    attributedTo: id.actor,
    name: post.title,
    summary: escapeHtml(summaryOf(post)),
    content: `${absoluteLinks(post.contentHtml ?? "", id.siteUrl)}<p><a href="${escapeHtml(url)}">${escapeHtml(url)}</a></p>`,
    mediaType: "text/html",
    url,
    published: (post.publishedAt ?? post.updatedAt).toISOString(),
    updated: post.updatedAt.toISOString(),
    to: [AS_PUBLIC],
    cc: [id.followers],
    ...(image ? { attachment: [{ type: "Image", url: image, name: post.featuredImageAlt ?? "" }] } : {}),
  };
}

/** The Article document of a published post, or null. */
export async function postObject(db: Db, postId: string) {
  const post = await publishedPost(db, postId);
  return post ? { "@context": CONTEXT, ...articleOf(post, await siteIdentity(db)) } : null;
}

/** Activities on one page of the outbox. */
export const OUTBOX_PAGE_SIZE = 20;

/** Where a page of the outbox starts: below this post in the outbox's order (newest first). */
const cursorSchema = z.object({
  // PostgreSQL's text form of a timestamptz (exact to the microsecond, with its offset).
  at: z.string().regex(/^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,6})?([+-]\d{2}(:\d{2})?|Z)$/),
  id: z.uuid(),
});
type OutboxCursor = z.output<typeof cursorSchema>;
const encodeCursor = (cursor: OutboxCursor) => Buffer.from(`${cursor.at}|${cursor.id}`, "utf8").toString("base64url");
function decodeCursor(value: string): OutboxCursor {
  const [at, id] = Buffer.from(value, "base64url").toString("utf8").split("|");
  return parseOrThrow(cursorSchema, { at, id }, FEDIVERSE_TEXTS.badOutboxPage);
}

/** The outbox's order: the date readers see (first published), newest first, then the id. */
const shownAt = sql`coalesce(${blogPosts.publishedAt}, ${blogPosts.createdAt})`;

/**
 * The outbox as Mastodon reads it: an OrderedCollection with the number of published posts and the
 * address of its `first` page; each OrderedCollectionPage holds 20 Create activities, newest first,
 * and links the `next` (older) page until the last. Pages are keyed by the last post shown, not by an
 * offset, so a post published while someone pages does not shift what they read.
 */
export async function outboxDocument(db: Db, query: { page?: string | null; before?: string | null } = {}) {
  const id = await siteIdentity(db);
  const pageUrl = (before?: OutboxCursor) => `${id.outbox}?page=true${before ? `&before=${encodeCursor(before)}` : ""}`;
  if (query.page !== "true") {
    const [total] = await db
      .select({ n: sql<number>`count(*)::int`.mapWith(Number) })
      .from(blogPosts)
      .where(eq(blogPosts.published, true));
    return { "@context": CONTEXT, id: id.outbox, type: "OrderedCollection", totalItems: total?.n ?? 0, first: pageUrl() };
  }
  const before = query.before ? decodeCursor(query.before) : null;
  const rows = await db
    .select({ ...postColumns, cursorAt: sql<string>`${shownAt}::text` })
    .from(blogPosts)
    .where(
      and(
        eq(blogPosts.published, true),
        before ? sql`(${shownAt}, ${blogPosts.id}) < (${before.at}::timestamptz, ${before.id}::uuid)` : undefined,
      ),
    )
    .orderBy(sql`${shownAt} desc nulls last, ${blogPosts.id} desc nulls last`)
    .limit(OUTBOX_PAGE_SIZE + 1);
  const posts = rows.slice(0, OUTBOX_PAGE_SIZE);
  const last = posts.at(-1);
  return {
    "@context": CONTEXT,
    id: query.before ? pageUrl(before ?? undefined) : pageUrl(),
    type: "OrderedCollectionPage",
    partOf: id.outbox,
    ...(rows.length > OUTBOX_PAGE_SIZE && last ? { next: pageUrl({ at: last.cursorAt, id: last.id }) } : {}),
    orderedItems: posts.map((post) => {
      const article = articleOf(post, id);
      return {
        id: `${article.id}#create`,
        type: "Create",
        actor: id.actor,
        published: article.published,
        to: article.to,
        cc: article.cc,
        object: article,
      };
    }),
  };
}

export async function followerCount(db: Db): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int`.mapWith(Number) }).from(fediverseFollowers);
  return row?.n ?? 0;
}

/** The followers collection: its size only (who follows is the owner's to know). */
export async function followersDocument(db: Db) {
  const id = await siteIdentity(db);
  return { "@context": CONTEXT, id: id.followers, type: "OrderedCollection", totalItems: await followerCount(db) };
}

/** What the admin's Settings shows: the handle to follow and the followers, newest first. */
export async function fediverseAdminView(db: Db, actor: Actor | null) {
  authorize(actor, canManageSettings, FEDIVERSE_TEXTS.forbidden);
  const id = await siteIdentity(db);
  const followers = await db
    .select({ handle: fediverseFollowers.handle, actorId: fediverseFollowers.actorId, createdAt: fediverseFollowers.createdAt })
    .from(fediverseFollowers)
    .orderBy(desc(fediverseFollowers.createdAt))
    .limit(100);
  return { handle: id.handle, address: `@${id.handle}@${id.host}`, count: await followerCount(db), followers };
}

/** The followers' columns a removal needs to tell their instance. */
const removedFollower = {
  actorId: fediverseFollowers.actorId,
  handle: fediverseFollowers.handle,
  inbox: fediverseFollowers.inbox,
  followId: fediverseFollowers.followId,
};
type RemovedFollower = { actorId: string; handle: string; inbox: string; followId: string };

/** Tells a removed follower's instance with a Reject of their Follow, so their app stops showing them as following. */
async function rejectFollow(tx: Db, id: SiteIdentity, follower: RemovedFollower): Promise<void> {
  await deliverTo(tx, follower.inbox, {
    id: `${id.actor}#reject-${createHash("sha256").update(`${follower.followId}\n${Date.now()}`).digest("hex").slice(0, 24)}`,
    type: "Reject",
    actor: id.actor,
    object: { id: follower.followId, type: "Follow", actor: follower.actorId, object: id.actor },
  });
}

const followerSchema = z.object({ actorId: z.string().min(1).max(2000) });

/** The owner removes a follower: the row goes and their instance is told with a Reject. */
export async function removeFollower(db: Db, actor: Actor | null, input: unknown): Promise<void> {
  authorize(actor, canManageSettings, FEDIVERSE_TEXTS.forbidden);
  const { actorId } = parseOrThrow(followerSchema, input, FEDIVERSE_TEXTS.chooseFollower);
  const id = await siteIdentity(db);
  await db.transaction(async (tx) => {
    const [removed] = await tx.delete(fediverseFollowers).where(eq(fediverseFollowers.actorId, actorId)).returning(removedFollower);
    if (!removed) throw new NotFoundError(FEDIVERSE_TEXTS.notFollowing);
    await rejectFollow(tx, id, removed);
    await recordAudit(tx, { actor, action: "settings.fediverse", summary: `removed the follower @${removed.handle}` });
  });
}

/** A block-list entry that refuses fediverse activities: a whole instance, or one account. */
export type FediverseBlock = { kind: "host" | "actor"; value: string };

/**
 * Whether an entry of the block list covers a remote actor: a "host" entry its host and the hosts
 * under it (as for comments' links), an "actor" entry its address (block values are lower-cased).
 */
export function blocksActor(block: { kind: string; value: string }, actorId: string): boolean {
  if (!URL.canParse(actorId)) return false;
  if (block.kind === "actor") return actorId.toLowerCase() === block.value;
  if (block.kind !== "host") return false;
  const host = new URL(actorId).host.toLowerCase();
  return host === block.value || host.endsWith(`.${block.value}`);
}

/**
 * In the transaction that adds a host or account to the block list: its followers stop following
 * (their rows go, each instance gets a Reject), so nothing more is delivered to them. Returns how
 * many were removed.
 */
export async function removeBlockedFollowers(tx: Db, block: FediverseBlock): Promise<number> {
  // The host is the address's third "/" part (scheme, empty, host[:port]); the finer test is blocksActor's.
  const host = sql`lower(split_part(${fediverseFollowers.actorId}, '/', 3))`;
  const candidates = await tx
    .select(removedFollower)
    .from(fediverseFollowers)
    .where(
      block.kind === "actor"
        ? sql`lower(${fediverseFollowers.actorId}) = ${block.value}`
        : sql`(${host} = ${block.value} or ${host} like ${`%.${block.value}`})`,
    );
  const blocked = candidates.filter((follower) => blocksActor(block, follower.actorId));
  if (blocked.length === 0) return 0;
  const id = await siteIdentity(tx);
  for (const follower of blocked) {
    await tx.delete(fediverseFollowers).where(eq(fediverseFollowers.actorId, follower.actorId));
    await rejectFollow(tx, id, follower);
  }
  logger.info({ kind: block.kind, removed: blocked.length }, "blocked fediverse followers removed");
  return blocked.length;
}

/**
 * In a transaction: adds a fediverse entry to the comments' block list (one list for every origin)
 * and removes the followers it covers. An account is named by its actor address.
 */
export async function addFediverseBlock(tx: Db, block: FediverseBlock): Promise<number> {
  const value = block.value.trim().toLowerCase();
  if (block.kind === "actor" && !/^https?:\/\/[^/\s]+\/\S*$/.test(value))
    throw new ValidationError("Enter the account's actor address (https://…) to block it.");
  await tx.insert(commentBlocks).values({ kind: block.kind, value }).onConflictDoNothing();
  return removeBlockedFollowers(tx, { kind: block.kind, value });
}

/**
 * The owner blocks a follower (Settings → Fediverse): they stop following, their instance gets a
 * Reject, and the inbox refuses anything they send from now on (403). Undone by removing the
 * "actor" entry from the comments' block list.
 */
export async function blockFollower(db: Db, actor: Actor | null, input: unknown): Promise<void> {
  authorize(actor, canManageSettings, FEDIVERSE_TEXTS.forbidden);
  const { actorId } = parseOrThrow(followerSchema, input, FEDIVERSE_TEXTS.chooseFollower);
  const [follower] = await db
    .select({ handle: fediverseFollowers.handle })
    .from(fediverseFollowers)
    .where(eq(fediverseFollowers.actorId, actorId));
  if (!follower) throw new NotFoundError(FEDIVERSE_TEXTS.notFollowing);
  await db.transaction(async (tx) => {
    await addFediverseBlock(tx, { kind: "actor", value: actorId });
    await recordAudit(tx, { actor, action: "settings.fediverse", summary: `blocked the follower @${follower.handle}` });
  });
}

// ---- Moving: a new handle or site address ----

const HISTORY_KEY = "fediverse_history";
/** How many earlier addresses and handles are kept (each one answers for the current actor). */
const HISTORY_LIMIT = 10;
const historySchema = z.object({
  actor: z.string(),
  handle: z.string(),
  previousActors: z.array(z.string()).max(HISTORY_LIMIT),
  previousHandles: z.array(z.string()).max(HISTORY_LIMIT),
});
type FediverseHistory = z.output<typeof historySchema>;

/** The actor address and handle last announced, and the earlier ones (empty lists before the first). */
export async function readFediverseHistory(db: Db): Promise<FediverseHistory> {
  const parsed = historySchema.safeParse(await readSetting(db, HISTORY_KEY));
  return parsed.success ? parsed.data : { actor: "", handle: "", previousActors: [], previousHandles: [] };
}

/** Whether a host name was the site's fediverse host before (its actor, inbox and WebFinger still answer there). */
export async function isEarlierFediverseHost(db: Db, hostname: string): Promise<boolean> {
  const { previousActors } = await readFediverseHistory(db);
  return previousActors.some((actor) => new URL(actor).hostname.toLowerCase() === hostname.toLowerCase());
}

const withFront = (value: string, list: string[], drop: string) =>
  [value, ...list.filter((item) => item !== value && item !== drop)].filter((item) => item && item !== drop).slice(0, HISTORY_LIMIT);

/**
 * Tells followers when the actor changed since it was last announced (one transaction, under a lock,
 * so two instances tell them once): a new site address sends `Move` from the old actor (signed with
 * its key id: the key is the same) to the new one, which names the old in `alsoKnownAs`, so
 * Mastodon moves the followers over; a new handle alone sends `Update` of the actor. The first call
 * only records the current actor.
 */
export async function announceActorChanges(db: Db): Promise<"moved" | "renamed" | null> {
  // Read before the transaction (its reads run side by side; a transaction's client takes one at a
  // time). A rename leaves the earlier addresses as they are, so this is the document to send.
  const [id, { "@context": _context, ...person }] = await Promise.all([siteIdentity(db), actorDocument(db)]);
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('fediverse-history'))`);
    const before = await readFediverseHistory(tx);
    if (before.actor === id.actor && before.handle === id.handle) return null;
    const next: FediverseHistory = {
      actor: id.actor,
      handle: id.handle,
      previousActors:
        before.actor && before.actor !== id.actor ? withFront(before.actor, before.previousActors, id.actor) : before.previousActors,
      previousHandles:
        before.handle && before.handle !== id.handle ? withFront(before.handle, before.previousHandles, id.handle) : before.previousHandles,
    };
    const value = JSON.stringify(next);
    await tx
      .insert(appSettings)
      .values({ key: HISTORY_KEY, value })
      .onConflictDoUpdate({ target: appSettings.key, set: { value, updatedAt: new Date() } });
    if (!before.actor) return null;
    if (before.actor !== id.actor) {
      const move = { id: `${before.actor}#move-${createHash("sha256").update(id.actor).digest("hex").slice(0, 16)}`, type: "Move" };
      await deliverToFollowers(tx, { ...move, actor: before.actor, object: before.actor, target: id.actor }, before.actor);
      logger.info({ from: before.actor, to: id.actor }, "fediverse actor moved; followers told");
      return "moved";
    }
    await deliverToFollowers(tx, {
      id: `${id.actor}#update-${Date.now()}`,
      type: "Update",
      actor: id.actor,
      to: [AS_PUBLIC],
      cc: [id.followers],
      object: person,
    });
    return "renamed";
  });
}

/** Every 10 minutes, on one instance: a changed PUBLIC_URL or Site address is announced soon after. */
export const announceActorTask = defineRecurringTask(
  "fediverse.actor",
  10 * 60_000,
  async ({ db }) => {
    await announceActorChanges(db);
  },
  { firstRunDelayMs: 60_000 },
);

// ---- Signed requests ----

/** The signature form an instance accepted last; RFC 9421 until one refuses it. */
async function knownStyle(db: Db, host: string): Promise<SignatureStyle | undefined> {
  const [row] = await db
    .select({ style: fediverseInstances.signatureStyle })
    .from(fediverseInstances)
    .where(eq(fediverseInstances.host, host));
  return row?.style === "cavage" || row?.style === "rfc9421" ? row.style : undefined;
}

async function rememberStyle(db: Db, host: string, style: SignatureStyle): Promise<void> {
  await db
    .insert(fediverseInstances)
    .values({ host, signatureStyle: style })
    .onConflictDoUpdate({ target: fediverseInstances.host, set: { signatureStyle: style, updatedAt: new Date() } });
}

/** A signature an instance did not take: the answer that sends the other form ("double knocking"). */
const refusedSignature = (error: unknown) => error instanceof OutboundFetchError && (error.status === 401 || error.status === 400);

/**
 * A request signed with the site's key, through the outbound guard: a GET of a document, or a POST
 * of an activity. It is signed with RFC 9421 unless the instance is known to take only
 * draft-cavage; a 401 or 400 is answered by one more try in the other form (as Fedify does), and the
 * form that worked is remembered per instance in the database, for every instance of the site.
 */
export async function signedFetch(
  db: Db,
  url: string,
  options: { accept: string; body?: string; /** Another of our actors' key ids (the old actor signs its Move). */ keyId?: string },
): Promise<OutboundResponse> {
  const host = new URL(url).host;
  const [id, keys, known] = await Promise.all([siteIdentity(db), siteKeys(db), knownStyle(db, host)]);
  const send = async (style: SignatureStyle) => {
    const headers = await signRequestAs(style, {
      method: options.body === undefined ? "GET" : "POST",
      url,
      body: options.body,
      keyId: options.keyId ?? id.keyId,
      privateKeyPem: keys.privateKeyPem,
    });
    return outboundFetch(url, {
      ...FEDIVERSE_LIMITS,
      userAgent: FEDIVERSE_USER_AGENT,
      accept: options.accept,
      ...(options.body === undefined ? {} : { body: { contentType: ACTIVITY_JSON, text: options.body } }),
      headers,
    });
  };
  const first: SignatureStyle = known ?? "rfc9421";
  try {
    const response = await send(first);
    if (known !== first) await rememberStyle(db, host, first);
    return response;
  } catch (error) {
    if (!refusedSignature(error)) throw error;
    const other: SignatureStyle = first === "rfc9421" ? "cavage" : "rfc9421";
    const response = await send(other);
    await rememberStyle(db, host, other);
    logger.info({ host, style: other }, "instance took the other signature form");
    return response;
  }
}

// ---- Delivery ----

const activitySchema = z.looseObject({ id: z.string(), type: z.string() });

/**
 * One activity to one inbox, signed with the site's key (signedFetch). A 4xx other than 408/429 is
 * the inbox's final word (gone, refused): no retry; anything else is tried again.
 */
export const deliverJob = defineJob(
  "fediverse.deliver",
  z.object({ inbox: z.url(), activity: activitySchema, signAs: z.url().optional() }),
  async ({ inbox, activity, signAs }, { db }) => {
    const body = JSON.stringify({ "@context": CONTEXT, ...activity });
    // Only an actor address the site had before may sign instead of the current one (its Move).
    if (signAs && !(await readFediverseHistory(db)).previousActors.includes(signAs))
      throw new PermanentJobError(`${signAs} is not one of the site's earlier actors`);
    try {
      await signedFetch(db, inbox, { accept: ACTIVITY_JSON, body, ...(signAs ? { keyId: `${signAs}#main-key` } : {}) });
    } catch (error) {
      const status = error instanceof OutboundFetchError ? error.status : undefined;
      if (status !== undefined && status >= 400 && status < 500 && status !== 408 && status !== 429)
        throw new PermanentJobError(`inbox refused the ${activity.type} (${status})`);
      throw error;
    }
    logger.info({ host: new URL(inbox).host, type: activity.type }, "activity delivered");
  },
  { maxAttempts: 8, timeoutMs: 30_000, retryBaseMs: 60_000 },
);

/** Queues one activity for one inbox, once (the activity's id and the inbox are the job's key). */
export async function deliverTo(tx: Db, inbox: string, activity: z.input<typeof activitySchema>, signAs?: string): Promise<void> {
  const key = createHash("sha256").update(`${activity.id}\n${inbox}`).digest("hex").slice(0, 40);
  await deliverJob.enqueue(tx, { inbox, activity, ...(signAs ? { signAs } : {}) }, { key: `fediverse-deliver:${key}` });
}

/** Queues an activity for every follower: one delivery per shared inbox, so an instance hears it once. */
export async function deliverToFollowers(tx: Db, activity: z.input<typeof activitySchema>, signAs?: string): Promise<number> {
  const rows = await tx.select({ inbox: fediverseFollowers.inbox, sharedInbox: fediverseFollowers.sharedInbox }).from(fediverseFollowers);
  const inboxes = [...new Set(rows.map((row) => row.sharedInbox ?? row.inbox))];
  for (const inbox of inboxes) await deliverTo(tx, inbox, activity, signAs);
  return inboxes.length;
}

/** What a version of a post says to followers: a new hash sends Update. */
function federatedVersion(post: FederatedPost): string {
  return createHash("sha256")
    .update(
      JSON.stringify([post.title, post.excerpt, post.contentHtml, post.featuredImageUrl, post.featuredImageAlt, post.slug, post.category]),
    )
    .digest("hex")
    .slice(0, 32);
}

/**
 * Brings followers in line with a post: Create the first time it is live, Update when what it says
 * changed, Delete once when it is deleted or unpublished. The post's `fediverse_posts` row is locked
 * while deciding, so two runs (two instances, a retry) send each activity once.
 */
export async function federatePost(db: Db, postId: string): Promise<"create" | "update" | "delete" | null> {
  const id = await siteIdentity(db);
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`fediverse-post:${postId}`}))`);
    const [sent] = await tx
      .select({ version: fediversePosts.version, deletedAt: fediversePosts.deletedAt })
      .from(fediversePosts)
      .where(eq(fediversePosts.postId, postId));
    const post = await publishedPost(tx, postId);
    const objectId = postObjectId(id.siteUrl, postId);
    if (!post) {
      if (!sent || sent.deletedAt) return null;
      const now = new Date();
      await tx.update(fediversePosts).set({ deletedAt: now, sentAt: now }).where(eq(fediversePosts.postId, postId));
      await deliverToFollowers(tx, {
        id: `${objectId}#delete-${now.getTime()}`,
        type: "Delete",
        actor: id.actor,
        to: [AS_PUBLIC],
        cc: [id.followers],
        object: { id: objectId, type: "Tombstone" },
      });
      return "delete";
    }
    const version = federatedVersion(post);
    if (sent && !sent.deletedAt && sent.version === version) return null;
    const type = sent && !sent.deletedAt ? "Update" : "Create";
    const article = articleOf(post, id);
    await tx
      .insert(fediversePosts)
      .values({ postId, version })
      .onConflictDoUpdate({ target: fediversePosts.postId, set: { version, deletedAt: null, sentAt: new Date() } });
    await deliverToFollowers(tx, {
      id: `${objectId}#${type.toLowerCase()}-${version}`,
      type,
      actor: id.actor,
      published: type === "Create" ? article.published : article.updated,
      to: article.to,
      cc: article.cc,
      object: article,
    });
    return type === "Create" ? "create" : "update";
  });
}

export const federatePostJob = defineJob(
  "fediverse.post",
  z.object({ postId: z.uuid() }),
  async ({ postId }, { db }) => {
    await federatePost(db, postId);
  },
  { maxAttempts: 5, timeoutMs: 60_000, retryBaseMs: 30_000 },
);

/**
 * In a post write's or delete's transaction: queue telling the followers, when there is anything to
 * tell (the post is live, or it was sent before). The job decides Create, Update or Delete.
 */
export async function enqueuePostFederation(tx: Db, postId: string): Promise<void> {
  const [row] = await tx
    .select({
      live: sql<boolean>`exists (select 1 from ${blogPosts} where ${blogPosts.id} = ${postId} and ${blogPosts.published})`,
      sent: sql<boolean>`exists (select 1 from ${fediversePosts} where ${fediversePosts.postId} = ${postId} and ${fediversePosts.deletedAt} is null)`,
    })
    .from(sql`(select 1) as one`);
  if (!row?.live && !row?.sent) return;
  await federatePostJob.enqueue(tx, { postId });
}
