import { createHash } from "node:crypto";
import { and, eq, isNotNull, isNull, ne, or } from "drizzle-orm";
import { z } from "zod";
import { BUCKET, imageTypeOf, recordStoredImage } from "~/features/uploads/uploads.server";
import { bumpContentVersion } from "~/server/content-version.server";
import type { Db } from "~/server/db/client.server";
import { comments } from "~/server/db/schema.server";
import { defineJob, PermanentJobError } from "~/server/jobs/jobs.server";
import { logger } from "~/server/logger.server";
import { outboundFetch, OutboundFetchError } from "~/server/outbound-fetch.server";
import { loadSharp } from "~/server/sharp.server";
import { getStorage } from "~/server/storage.server";

/**
 * Remote authors' pictures (a fediverse actor's icon, a Webmention h-card's photo), copied to our own
 * storage so the page never makes the reader's browser call another server.
 * docs/decisions/0081-trusted-commenters.md ("Remote authors' avatars")
 */

/** A picture larger than this is not read (an avatar is a few kilobytes). */
export const AVATAR_MAX_BYTES = 512_000;
/** The square we keep (drawn at 28 px beside the name: sharp on any screen). */
const AVATAR_SIZE = 96;
const AVATAR_FETCH = { timeoutMs: 10_000, maxBytes: AVATAR_MAX_BYTES } as const;
const AVATAR_USER_AGENT = "7fs-portfolio-avatars/1.0";
/** Decompression-bomb guard: an avatar needs far fewer pixels than this. */
const MAX_AVATAR_PIXELS = 16_000_000;
const ACCEPTED_TYPES = ["image/png", "image/jpeg", "image/webp", "image/gif", "image/avif"] as const;

/** The absolute http(s) address of a remote picture, or null (anything else is not fetched). */
export function remotePhotoUrl(value: unknown): string | null {
  if (typeof value !== "string" || value.length > 2000 || !URL.canParse(value)) return null;
  const url = new URL(value);
  return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
}

const photoHash = (photoUrl: string) => createHash("sha256").update(photoUrl).digest("hex").slice(0, 32);

/** One stored file per picture address: every comment from the same author shares it. */
export function avatarKeyOf(photoUrl: string): string {
  return `${BUCKET}/avatars/${photoHash(photoUrl)}.webp`;
}

/** The picture as a small square WebP (first frame of an animation), or a reason it is refused. */
export async function makeAvatar(bytes: Uint8Array, contentType: string | null): Promise<Buffer> {
  const declared = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  // The uploads' rule: what sharp reads in the header is the type, and the declared one must agree.
  const real = await imageTypeOf(bytes);
  if (!real || real !== declared)
    throw new PermanentJobError(`not an accepted image (declared ${declared || "no type"}, a JPEG, PNG, WebP, GIF or AVIF wanted)`);
  const sharp = await loadSharp();
  try {
    return await sharp(bytes, { limitInputPixels: MAX_AVATAR_PIXELS, failOn: "error", animated: false })
      .rotate()
      .resize(AVATAR_SIZE, AVATAR_SIZE, { fit: "cover" })
      .webp({ quality: 80 })
      .toBuffer();
  } catch {
    throw new PermanentJobError("the image could not be decoded");
  }
}

async function fetchPicture(url: string): Promise<{ bytes: Uint8Array; contentType: string | null }> {
  try {
    return await outboundFetch(url, { ...AVATAR_FETCH, accept: ACCEPTED_TYPES.join(", "), userAgent: AVATAR_USER_AGENT });
  } catch (error) {
    // A client error will not change on retry; a timeout or a server error may.
    if (error instanceof OutboundFetchError && error.status !== undefined && error.status >= 400 && error.status < 500)
      throw new PermanentJobError(`avatar answered ${error.message}`);
    throw error;
  }
}

/**
 * Copies a remote picture to our storage (once per address: a stored copy is reused) and records it
 * on every comment that names it; the approved ones' pages are refreshed.
 */
export async function storeCommentAvatar(db: Db, photoUrl: string): Promise<"stored" | "reused" | "skipped"> {
  const photo = remotePhotoUrl(photoUrl);
  if (!photo) return "skipped";
  const key = avatarKeyOf(photo);
  const storage = getStorage();
  let byteSize = (await storage.stat(key))?.size;
  const reused = byteSize !== undefined;
  if (!reused) {
    const response = await fetchPicture(photo);
    const avatar = await makeAvatar(response.bytes, response.contentType);
    await storage.put(key, avatar, "image/webp");
    byteSize = avatar.byteLength;
  }
  await db.transaction(async (tx) => {
    // An upload row (once per file, copies made before rows existed included): listed in the media
    // library, and swept as an orphan a day after no comment names it.
    await recordStoredImage(tx, {
      storageKey: key,
      contentType: "image/webp",
      byteSize: byteSize ?? 0,
      width: AVATAR_SIZE,
      height: AVATAR_SIZE,
      originalName: `Commenter's avatar from ${new URL(photo).host}`,
    });
    const updated = await tx
      .update(comments)
      .set({ authorAvatarKey: key })
      .where(and(eq(comments.authorPhotoUrl, photo), or(isNull(comments.authorAvatarKey), ne(comments.authorAvatarKey, key))))
      .returning({ state: comments.state });
    if (updated.some((comment) => comment.state === "approved")) await bumpContentVersion(tx);
  });
  logger.info({ key, reused }, "comment avatar stored");
  return reused ? "reused" : "stored";
}

/** A failed copy is tried again for the next reply that names the picture, once this long has passed. */
export const AVATAR_RETRY_AFTER_MS = 6 * 60 * 60_000;

/**
 * Retried with backoff while the picture's server answers a timeout or a 5xx (an instance may be
 * down for a while: about 5, 10, 20, 40 and 60 minutes apart), then the author keeps their initials
 * until a later reply names the picture again (AVATAR_RETRY_AFTER_MS).
 */
export const commentAvatarJob = defineJob(
  "comments.avatar",
  z.object({ photoUrl: z.string().max(2000) }),
  async ({ photoUrl }, { db }) => {
    await storeCommentAvatar(db, photoUrl);
  },
  { maxAttempts: 6, timeoutMs: 30_000, retryBaseMs: 5 * 60_000 },
);

/**
 * The stored copy of a comment's picture when another comment has it already; otherwise its job is
 * queued (in the caller's transaction), once per address: a picture that could not be copied is not
 * fetched again for every reply, only for one coming AVATAR_RETRY_AFTER_MS after the last try ended
 * (and at once when the earlier copy was made but swept since, its comments gone).
 */
export async function avatarFor(tx: Db, photoUrl: string | null): Promise<string | null> {
  if (!photoUrl) return null;
  const [known] = await tx
    .select({ key: comments.authorAvatarKey })
    .from(comments)
    .where(and(eq(comments.authorPhotoUrl, photoUrl), isNotNull(comments.authorAvatarKey)))
    .limit(1);
  if (known?.key) return known.key;
  await commentAvatarJob.enqueue(
    tx,
    { photoUrl },
    { key: `comments.avatar:${photoHash(photoUrl)}`, replaceFinishedBefore: new Date(Date.now() - AVATAR_RETRY_AFTER_MS) },
  );
  return null;
}
