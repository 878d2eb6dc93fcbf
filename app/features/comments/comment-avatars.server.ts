import { createHash } from "node:crypto";
import { and, eq, isNotNull, isNull, ne, or } from "drizzle-orm";
import { z } from "zod";
import { BUCKET } from "~/features/uploads/uploads.server";
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
const ACCEPTED_TYPES = ["image/png", "image/jpeg", "image/webp", "image/gif"] as const;

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

/** Which of the accepted types the bytes are, by their magic numbers (the declared type is not trusted alone). */
export function sniffImageType(bytes: Uint8Array): (typeof ACCEPTED_TYPES)[number] | null {
  const ascii = (start: number, end: number) => String.fromCharCode(...bytes.subarray(start, end));
  if (bytes.length >= 8 && bytes[0] === 0x89 && ascii(1, 4) === "PNG" && bytes[4] === 0x0d && bytes[5] === 0x0a) return "image/png";
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "image/jpeg";
  if (bytes.length >= 6 && (ascii(0, 6) === "GIF87a" || ascii(0, 6) === "GIF89a")) return "image/gif";
  if (bytes.length >= 12 && ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return "image/webp";
  return null;
}

/** The picture as a small square WebP (first frame of an animation), or a reason it is refused. */
export async function makeAvatar(bytes: Uint8Array, contentType: string | null): Promise<Buffer> {
  const declared = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  const sniffed = sniffImageType(bytes);
  if (!sniffed || !(ACCEPTED_TYPES as readonly string[]).includes(declared))
    throw new PermanentJobError(`not an accepted image (declared ${declared || "no type"}, PNG, JPEG, WebP or GIF wanted)`);
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
  const reused = (await storage.stat(key)) !== null;
  if (!reused) {
    const response = await fetchPicture(photo);
    await storage.put(key, await makeAvatar(response.bytes, response.contentType), "image/webp");
  }
  await db.transaction(async (tx) => {
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

/** A few tries (an instance may be briefly down), then the author keeps their initials. */
export const commentAvatarJob = defineJob(
  "comments.avatar",
  z.object({ photoUrl: z.string().max(2000) }),
  async ({ photoUrl }, { db }) => {
    await storeCommentAvatar(db, photoUrl);
  },
  { maxAttempts: 3, timeoutMs: 30_000, retryBaseMs: 60_000 },
);

/**
 * The stored copy of a comment's picture when another comment has it already; otherwise its job is
 * queued (in the caller's transaction), once per address while that job is kept: a picture that
 * could not be copied is not fetched again for every reply.
 */
export async function avatarFor(tx: Db, photoUrl: string | null): Promise<string | null> {
  if (!photoUrl) return null;
  const [known] = await tx
    .select({ key: comments.authorAvatarKey })
    .from(comments)
    .where(and(eq(comments.authorPhotoUrl, photoUrl), isNotNull(comments.authorAvatarKey)))
    .limit(1);
  if (known?.key) return known.key;
  await commentAvatarJob.enqueue(tx, { photoUrl }, { key: `comments.avatar:${photoHash(photoUrl)}` });
  return null;
}
