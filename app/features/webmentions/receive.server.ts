import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { fileMention, removeMention } from "~/features/comments/comments.server";
import { readSiteSettings } from "~/features/settings/settings.server";
import { emailSiteUrl } from "~/features/settings/site-url.server";
import { parseCategory } from "~/lib/categories";
import type { Db } from "~/server/db/client.server";
import { blogPosts } from "~/server/db/schema.server";
import { parseOrThrow, ValidationError } from "~/server/errors.server";
import { defineJob, PermanentJobError } from "~/server/jobs/jobs.server";
import { logger } from "~/server/logger.server";
import { outboundFetch, OutboundFetchError } from "~/server/outbound-fetch.server";
import { enforceRateLimits } from "~/server/rate-limit.server";
import { absoluteUrl, linkedUrls, parseMention, sameUrl } from "./mention-html.server";

/** Fetching a source page: one deadline for the whole exchange and a byte cap read as it streams. */
export const SOURCE_LIMITS = { timeoutMs: 10_000, maxBytes: 1_000_000 } as const;
export const WEBMENTION_USER_AGENT = "7fs-portfolio-webmention/1.0";
/** Per source host and per sending address, in an hour: enough for a busy blog, not for a flood. */
const RATE_LIMIT = { host: 30, ip: 60, windowSeconds: 3600 };

export const WEBMENTION_TEXTS = {
  accepted: "Webmention accepted: it will be checked and then wait for moderation.",
  rateLimited: "Too many Webmentions from this site. Please try again later.",
  sameUrl: "source and target must be different addresses.",
  notPost: "target is not a published post on this site.",
} as const;

const httpUrl = (field: string) =>
  z
    .string({ error: `${field} is required` })
    .trim()
    .min(1, `${field} is required`)
    .max(2000, `${field} must be at most 2000 characters`)
    .refine(
      (value) => /^https?:\/\//i.test(value) && absoluteUrl(value, value) !== null,
      `${field} must be an http:// or https:// address`,
    );

const requestSchema = z.object({ source: httpUrl("source"), target: httpUrl("target") });

/** The post a target address names on this site (one of `origins`), published; null otherwise. */
async function targetPost(db: Db, target: URL, origins: readonly string[]) {
  if (!origins.includes(target.origin)) return null;
  const [, first, category, slug, ...rest] = target.pathname.split("/");
  const parsed = category ? parseCategory(decodeURIComponent(category)) : null;
  if (first !== "7fs" || !parsed || !slug || rest.some((part) => part !== "")) return null;
  const [post] = await db
    .select({ id: blogPosts.id })
    .from(blogPosts)
    .where(and(eq(blogPosts.slug, decodeURIComponent(slug)), eq(blogPosts.category, parsed), eq(blogPosts.published, true)));
  return post ?? null;
}

const verifyPayload = z.object({ postId: z.uuid(), source: z.url(), target: z.url(), ip: z.string().max(100) });

/**
 * A Webmention request (W3C Webmention §3.2): the form's source and target are checked at once (both
 * http(s), different, the target a published post here) and the rate limits applied; the source is
 * fetched and read later, on the job runner. Answers what to tell the sender.
 */
export async function acceptWebmention(db: Db, input: unknown, ip: string, origins: readonly string[]): Promise<{ jobId: string }> {
  const { source, target } = parseOrThrow(requestSchema, input);
  const sourceUrl = new URL(source);
  const targetUrl = new URL(target);
  if (sameUrl(source, target)) throw new ValidationError(WEBMENTION_TEXTS.sameUrl);
  const post = await targetPost(db, targetUrl, origins);
  if (!post) throw new ValidationError(WEBMENTION_TEXTS.notPost);
  await enforceRateLimits(
    db,
    [
      { key: `webmention:host:${sourceUrl.host}`, limit: RATE_LIMIT.host, windowSeconds: RATE_LIMIT.windowSeconds },
      { key: `webmention:ip:${ip}`, limit: RATE_LIMIT.ip, windowSeconds: RATE_LIMIT.windowSeconds },
    ],
    WEBMENTION_TEXTS.rateLimited,
  );
  sourceUrl.hash = "";
  const { id } = await verifyWebmentionJob.enqueue(db, { postId: post.id, source: sourceUrl.href, target: targetUrl.href, ip });
  return { jobId: id };
}

/** Reads the source as text when it is a page or plain text; other types cannot link (null). */
function sourceText(bytes: Uint8Array, contentType: string | null): { text: string; html: boolean } | null {
  const type = (contentType ?? "text/html").split(";")[0]!.trim().toLowerCase();
  const text = new TextDecoder("utf-8").decode(bytes);
  if (type === "text/html" || type === "application/xhtml+xml") return { text, html: true };
  if (type.startsWith("text/")) return { text, html: false };
  return null;
}

/**
 * Verifies a Webmention (W3C Webmention §3.2.2): fetches the source through the outbound guard; a
 * source that answers 410 Gone or no longer links to the target removes an earlier mention; one
 * that links is read for its microformats2 and filed in the comments' moderation queue. A source
 * that cannot be reached is retried; one that answers another client error is given up.
 */
export async function verifyWebmention(
  db: Db,
  payload: z.output<typeof verifyPayload>,
  siteUrl: string,
): Promise<"filed" | "removed" | "ignored"> {
  const { postId, source, target, ip } = payload;
  let response;
  try {
    response = await outboundFetch(source, { ...SOURCE_LIMITS, accept: "text/html, text/plain;q=0.5", userAgent: WEBMENTION_USER_AGENT });
  } catch (error) {
    if (error instanceof OutboundFetchError && error.status === 410)
      return (await removeMention(db, postId, source)) ? "removed" : "ignored";
    if (error instanceof OutboundFetchError && error.status !== undefined && error.status >= 400 && error.status < 500)
      throw new PermanentJobError(`Webmention source answered ${error.message}`);
    throw error;
  }
  const read = sourceText(response.bytes, response.contentType);
  const links = read
    ? read.html
      ? linkedUrls(read.text, response.url).some((url) => sameUrl(url, target))
      : read.text.includes(target)
    : false;
  if (!read || !links) {
    const removed = await removeMention(db, postId, source);
    logger.info({ host: new URL(source).host }, "webmention source does not link to the target");
    return removed ? "removed" : "ignored";
  }
  const mention = read.html
    ? await parseMention(read.text, response.url, target)
    : { kind: "mention" as const, authorName: new URL(source).host, authorUrl: new URL(source).origin, content: "", photoUrl: null };
  await fileMention(db, { ...mention, postId, source, ip }, siteUrl);
  return "filed";
}

export const verifyWebmentionJob = defineJob(
  "webmentions.verify",
  verifyPayload,
  async (payload, { db }) => {
    await verifyWebmention(db, payload, emailSiteUrl(await readSiteSettings(db)));
  },
  { maxAttempts: 4, timeoutMs: 30_000, retryBaseMs: 30_000 },
);
