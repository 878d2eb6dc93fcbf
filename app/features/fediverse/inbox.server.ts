import { fromHtml } from "hast-util-from-html";
import { toText } from "hast-util-to-text";
import { eq, inArray } from "drizzle-orm";
import { z } from "zod";
import { fileMention, remotePhotoUrl, removeFediverseMention } from "~/features/comments/comments.server";
import type { Db } from "~/server/db/client.server";
import { commentBlocks, fediverseActors, fediverseFollowers } from "~/server/db/schema.server";
import { ForbiddenError, UnauthorizedError, ValidationError } from "~/server/errors.server";
import { logger } from "~/server/logger.server";
import { OutboundFetchError } from "~/server/outbound-fetch.server";
import { enforceRateLimits } from "~/server/rate-limit.server";
import { ACTIVITY_ACCEPT, blocksActor, deliverTo, postIdOfObject, signedFetch, siteIdentity, type SiteIdentity } from "./fediverse.server";
import { checkRfc9421, checkSignature, parseRfc9421, parseSignature } from "./http-signature.server";

/** An activity larger than this is refused before it is read as JSON. */
export const INBOX_MAX_BYTES = 256_000;
/** Per remote instance, in an hour: enough for a busy thread, not for a flood. */
const RATE_LIMIT = { host: 120, windowSeconds: 3600 };
/** A cached key is fetched again after this long, or at once when a signature made with it fails. */
const KEY_MAX_AGE_MS = 24 * 60 * 60_000;

export const INBOX_TEXTS = {
  unsigned: "This inbox takes only activities signed with HTTP Signatures (draft-cavage or RFC 9421).",
  badSignature: "The HTTP signature could not be verified",
  notActivity: "The body is not an ActivityPub activity (JSON with id, type and actor).",
  wrongActor: "The activity's actor is not the owner of the key that signed it.",
  wrongAuthor: "The note's attributedTo must be the account that signed the activity.",
  blocked: "This site does not accept activities from your account or instance.",
  rateLimited: "Too many activities from this instance. Please try again later.",
} as const;

const ref = z.union([z.string(), z.looseObject({ id: z.string() })]);
/** The id of a reference: an address, or an object with an `id`. */
function idOf(value: unknown): string | null {
  if (typeof value === "string") return value;
  if (typeof value === "object" && value !== null && "id" in value && typeof value.id === "string") return value.id;
  return null;
}

const activitySchema = z.looseObject({
  id: z.string().max(2000),
  type: z.string().max(100),
  actor: ref,
  object: z.unknown().optional(),
});
type Activity = z.output<typeof activitySchema>;

const noteSchema = z.looseObject({
  id: z.url().max(2000),
  type: z.string(),
  inReplyTo: ref.nullish(),
  content: z.string().max(100_000).nullish(),
  attributedTo: ref.optional(),
});

const linkOf = z.union([z.string(), z.looseObject({ href: z.string() })]);
const actorSchema = z.looseObject({
  id: z.url(),
  type: z.string(),
  preferredUsername: z.string().max(200).optional(),
  name: z.string().max(500).nullish(),
  url: z.union([linkOf, z.array(linkOf)]).optional(),
  inbox: z.url(),
  endpoints: z.looseObject({ sharedInbox: z.url().optional() }).optional(),
  publicKey: z.looseObject({ id: z.string(), owner: z.string(), publicKeyPem: z.string().min(1) }).optional(),
  icon: z.unknown().optional(),
});
const keySchema = z.looseObject({ id: z.string(), owner: z.url(), publicKeyPem: z.string().min(1) });

type RemoteActor = typeof fediverseActors.$inferSelect;

/**
 * The address of an actor's `icon`: an Image (or the first of several) whose `url` is an address, a
 * Link or a list of them, or the address itself; null when there is none or it is anything else.
 */
export function actorIconUrl(icon: unknown): string | null {
  const first = (value: unknown): unknown => (Array.isArray(value) ? value[0] : value);
  let value = first(icon);
  if (typeof value === "object" && value !== null && "url" in value) value = first(value.url);
  if (typeof value === "object" && value !== null && "href" in value) value = value.href;
  return remotePhotoUrl(value);
}

async function fetchJson(url: string, db: Db): Promise<unknown> {
  // Signed like every request we send: instances in "authorized fetch" mode answer only signed GETs.
  let response;
  try {
    response = await signedFetch(db, url, { accept: ACTIVITY_ACCEPT });
  } catch (error) {
    if (error instanceof OutboundFetchError)
      throw new UnauthorizedError(`${INBOX_TEXTS.badSignature}: the key could not be fetched (${error.message}).`);
    throw error;
  }
  try {
    return JSON.parse(new TextDecoder().decode(response.bytes));
  } catch {
    throw new UnauthorizedError(`${INBOX_TEXTS.badSignature}: the key's address does not answer JSON.`);
  }
}

/**
 * The key a signature names, with its actor: fetched through the outbound guard (an actor document
 * that carries the key, or a key document naming its owner) and cached in the database.
 */
async function fetchRemoteKey(db: Db, keyId: string): Promise<RemoteActor> {
  const unusable = (why: string) => new UnauthorizedError(`${INBOX_TEXTS.badSignature}: ${why}`);
  if (!URL.canParse(keyId)) throw unusable("the keyId is not an address.");
  let document = await fetchJson(keyId, db);
  const asKey = keySchema.safeParse(document);
  if (asKey.success && !actorSchema.safeParse(document).success) document = await fetchJson(asKey.data.owner, db);
  const parsed = actorSchema.safeParse(document);
  if (!parsed.success || !parsed.data.publicKey) throw unusable("the key's address names no actor with a public key.");
  const actor = parsed.data;
  const publicKey = actor.publicKey!;
  // The key must be this actor's and live where the actor does: nobody vouches for another host's key.
  if (publicKey.id !== keyId || publicKey.owner !== actor.id || new URL(actor.id).origin !== new URL(keyId).origin)
    throw unusable("the key does not belong to the actor it names.");
  const urls = [actor.url ?? []].flat().map((u) => (typeof u === "string" ? u : u.href));
  const host = new URL(actor.id).host;
  const row: RemoteActor = {
    keyId,
    actorId: actor.id,
    publicKeyPem: publicKey.publicKeyPem,
    inbox: actor.inbox,
    sharedInbox: actor.endpoints?.sharedInbox ?? null,
    handle: `${actor.preferredUsername ?? host}@${host}`,
    name: (actor.name?.trim() || actor.preferredUsername || host).slice(0, 80),
    profileUrl: urls.find((u) => URL.canParse(u) && /^https?:/.test(u)) ?? actor.id,
    iconUrl: actorIconUrl(actor.icon),
    fetchedAt: new Date(),
  };
  await db
    .insert(fediverseActors)
    .values(row)
    .onConflictDoUpdate({ target: fediverseActors.keyId, set: { ...row } });
  return row;
}

async function cachedKey(db: Db, keyId: string): Promise<RemoteActor | undefined> {
  const [row] = await db.select().from(fediverseActors).where(eq(fediverseActors.keyId, keyId));
  return row && Date.now() - row.fetchedAt.getTime() < KEY_MAX_AGE_MS ? row : undefined;
}

export interface InboxRequest {
  method: string;
  /** The address the request was made to (its path and query are signed). */
  url: string;
  header: (name: string) => string | null;
  body: Uint8Array;
  ip: string;
}

/**
 * The request's signature, in whichever form it comes: RFC 9421 when it has `Signature-Input`, else
 * draft-cavage. Gives the key it names and a check against that key (a reason to refuse, or null).
 */
async function requestSignature(db: Db, request: InboxRequest): Promise<{ keyId: string; check: (publicKeyPem: string) => string | null }> {
  const url = new URL(request.url);
  const rfc9421 = parseRfc9421(request.header);
  if (typeof rfc9421 === "string") throw new UnauthorizedError(`${INBOX_TEXTS.badSignature}: ${rfc9421}.`);
  if (rfc9421) {
    // The sender signs the address it was given: our inbox under the site's address, whatever
    // name the request reached this process by (a proxy may pass its upstream's).
    const targetUri = `${new URL((await siteIdentity(db)).siteUrl).origin}${url.pathname}${url.search}`;
    return {
      keyId: rfc9421.keyId,
      check: (publicKeyPem) =>
        checkRfc9421({ signature: rfc9421, method: request.method, targetUri, header: request.header, body: request.body, publicKeyPem }),
    };
  }
  const cavage = parseSignature(request.header("signature") ?? request.header("authorization"));
  if (!cavage) throw new UnauthorizedError(INBOX_TEXTS.unsigned);
  return {
    keyId: cavage.keyId,
    check: (publicKeyPem) =>
      checkSignature({
        signature: cavage,
        method: request.method,
        target: `${url.pathname}${url.search}`,
        header: request.header,
        body: request.body,
        publicKeyPem,
      }),
  };
}

/**
 * Verifies a request's HTTP signature (fetching the key when it is unknown, and once more when a
 * cached key fails: the actor may have a new one); returns the signer.
 */
async function verifiedSigner(db: Db, request: InboxRequest): Promise<RemoteActor> {
  const { keyId, check } = await requestSignature(db, request);
  const cached = await cachedKey(db, keyId);
  if (cached && check(cached.publicKeyPem) === null) return cached;
  const fresh = await fetchRemoteKey(db, keyId);
  const problem = check(fresh.publicKeyPem);
  if (problem) throw new UnauthorizedError(`${INBOX_TEXTS.badSignature}: ${problem}.`);
  return fresh;
}

/** Plain text of a note's HTML: paragraphs and line breaks kept, links as their visible text. */
export function noteText(html: string): string {
  return toText(fromHtml(html, { fragment: true }), { whitespace: "normal" })
    .replace(/\n{3,}/g, "\n\n")
    .trim()
    .slice(0, 4000);
}

/** Whether the owner blocked the signer's instance (or one above it) or the signer's account. */
async function isBlocked(db: Db, actorId: string): Promise<boolean> {
  const rows = await db
    .select({ kind: commentBlocks.kind, value: commentBlocks.value })
    .from(commentBlocks)
    .where(inArray(commentBlocks.kind, ["host", "actor"]));
  return rows.some((block) => blocksActor(block, actorId));
}

async function follow(db: Db, activity: Activity, signer: RemoteActor, id: SiteIdentity): Promise<string> {
  if (idOf(activity.object) !== id.actor) return "ignored";
  await db.transaction(async (tx) => {
    await tx
      .insert(fediverseFollowers)
      .values({
        actorId: signer.actorId,
        handle: signer.handle,
        inbox: signer.inbox,
        sharedInbox: signer.sharedInbox,
        followId: activity.id,
      })
      .onConflictDoUpdate({
        target: fediverseFollowers.actorId,
        set: { handle: signer.handle, inbox: signer.inbox, sharedInbox: signer.sharedInbox, followId: activity.id },
      });
    // Accepted at once; the Accept goes to the follower's own inbox and names their Follow.
    await deliverTo(tx, signer.inbox, {
      id: `${id.actor}#accept-${encodeURIComponent(activity.id)}`,
      type: "Accept",
      actor: id.actor,
      object: { id: activity.id, type: "Follow", actor: signer.actorId, object: id.actor },
    });
  });
  logger.info({ follower: signer.handle }, "fediverse follow accepted");
  return "followed";
}

async function undo(db: Db, activity: Activity, signer: RemoteActor): Promise<string> {
  const inner = z
    .looseObject({ id: z.string().optional(), type: z.string().optional(), object: z.unknown().optional() })
    .safeParse(activity.object);
  const innerId = inner.success ? inner.data.id : idOf(activity.object);
  const type = inner.success ? inner.data.type : undefined;
  if (type === "Follow" || (!type && innerId)) {
    const removed = await db
      .delete(fediverseFollowers)
      .where(eq(fediverseFollowers.actorId, signer.actorId))
      .returning({ actorId: fediverseFollowers.actorId });
    if (removed.length > 0) {
      logger.info({ follower: signer.handle }, "fediverse follower left");
      return "unfollowed";
    }
  }
  if (innerId && (await removeFediverseMention(db, innerId, new URL(signer.actorId).origin)) > 0) return "removed";
  return "ignored";
}

/** A Note answering one of our posts becomes a comment in the moderation queue (the comments' filters decide). */
async function create(db: Db, activity: Activity, signer: RemoteActor, id: SiteIdentity, ip: string): Promise<string> {
  const note = noteSchema.safeParse(activity.object);
  if (!note.success || note.data.type !== "Note") return "ignored";
  const postId = postIdOfObject(id.siteUrl, idOf(note.data.inReplyTo) ?? "");
  if (!postId) return "ignored";
  // The note must be the signer's own (its attributedTo names the signer: a note naming no author or
  // someone else is refused, so nobody files words under another's name), from the signer's instance.
  const author = idOf(note.data.attributedTo);
  if (author !== signer.actorId || new URL(note.data.id).origin !== new URL(signer.actorId).origin)
    throw new ForbiddenError(INBOX_TEXTS.wrongAuthor);
  const content = noteText(note.data.content ?? "");
  if (!content) return "ignored";
  await fileMention(
    db,
    {
      postId,
      source: note.data.id,
      kind: "reply",
      authorName: signer.name,
      authorUrl: signer.profileUrl,
      content,
      ip,
      fediverseHandle: signer.handle,
      photoUrl: signer.iconUrl,
    },
    id.siteUrl,
  );
  return "filed";
}

/** A like or a boost of one of our posts: listed under the post's mentions once approved. */
async function reaction(db: Db, activity: Activity, signer: RemoteActor, id: SiteIdentity, ip: string): Promise<string> {
  const postId = postIdOfObject(id.siteUrl, idOf(activity.object) ?? "");
  if (!postId || !URL.canParse(activity.id) || new URL(activity.id).origin !== new URL(signer.actorId).origin) return "ignored";
  await fileMention(
    db,
    {
      postId,
      source: activity.id,
      kind: activity.type === "Like" ? "like" : "repost",
      authorName: signer.name,
      authorUrl: signer.profileUrl,
      content: "",
      ip,
      fediverseHandle: signer.handle,
    },
    id.siteUrl,
  );
  return "filed";
}

/**
 * POST to the inbox: the signature is verified before anything is read or done (401 otherwise), the
 * activity's actor must be the key's owner, blocked instances are refused, and then: Follow (stored,
 * Accept queued), Undo (of a Follow, a like or a boost), Create Note in reply to a post (a comment
 * waiting for moderation), Like and Announce (mentions), Delete (a reply withdrawn). Anything else is
 * accepted and ignored.
 */
export async function receiveActivity(db: Db, request: InboxRequest): Promise<string> {
  if (request.body.byteLength > INBOX_MAX_BYTES) throw new ValidationError(`An activity must be at most ${INBOX_MAX_BYTES} bytes.`);
  const signer = await verifiedSigner(db, request);
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(request.body));
  } catch {
    throw new ValidationError(INBOX_TEXTS.notActivity);
  }
  const parsed = activitySchema.safeParse(json);
  if (!parsed.success) throw new ValidationError(INBOX_TEXTS.notActivity);
  const activity = parsed.data;
  if (idOf(activity.actor) !== signer.actorId) throw new UnauthorizedError(INBOX_TEXTS.wrongActor);
  if (await isBlocked(db, signer.actorId)) throw new ForbiddenError(INBOX_TEXTS.blocked);
  const host = new URL(signer.actorId).host;
  await enforceRateLimits(
    db,
    [{ key: `fediverse:host:${host}`, limit: RATE_LIMIT.host, windowSeconds: RATE_LIMIT.windowSeconds }],
    INBOX_TEXTS.rateLimited,
  );
  const id = await siteIdentity(db);
  switch (activity.type) {
    case "Follow":
      return follow(db, activity, signer, id);
    case "Undo":
      return undo(db, activity, signer);
    case "Create":
      return create(db, activity, signer, id, request.ip);
    case "Like":
    case "Announce":
      return reaction(db, activity, signer, id, request.ip);
    case "Delete": {
      const target = idOf(activity.object);
      if (target === signer.actorId) {
        await db.delete(fediverseFollowers).where(eq(fediverseFollowers.actorId, signer.actorId));
        return "unfollowed";
      }
      return target && (await removeFediverseMention(db, target, new URL(signer.actorId).origin)) > 0 ? "removed" : "ignored";
    }
    default:
      return "ignored";
  }
}
