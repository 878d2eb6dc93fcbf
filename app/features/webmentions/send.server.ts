import { createHash } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { readSiteSettings } from "~/features/settings/settings.server";
import { emailSiteUrl } from "~/features/settings/site-url.server";
import { parseCategory, postPath } from "~/lib/categories";
import type { Db } from "~/server/db/client.server";
import { blogPosts, webmentionSends } from "~/server/db/schema.server";
import { defineJob } from "~/server/jobs/jobs.server";
import { logger } from "~/server/logger.server";
import { outboundFetch, OutboundFetchError } from "~/server/outbound-fetch.server";
import { absoluteUrl, linkedUrls, relEndpoint } from "./mention-html.server";
import { SOURCE_LIMITS, WEBMENTION_USER_AGENT } from "./receive.server";

/** At most this many linked pages are notified per version of a post. */
const MAX_TARGETS = 50;

/**
 * The receiver's endpoint (W3C Webmention §3.1.2): the first HTTP Link header with rel="webmention",
 * else the first <link> or <a> with rel="webmention" in the page, resolved against the page's final
 * address; null when it announces none.
 */
export function discoverEndpoint(page: { url: string; html: string | null; link: string | null }): string | null {
  for (const part of page.link?.split(/,(?=\s*<)/) ?? []) {
    const match = /^\s*<([^>]*)>(.*)$/.exec(part);
    const rel = match?.[2] ? /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/i.exec(match[2]) : null;
    const rels = (rel?.[1] ?? rel?.[2] ?? "").toLowerCase().split(/\s+/);
    if (match && rels.includes("webmention")) return absoluteUrl(match[1] ?? "", page.url);
  }
  const found = page.html ? relEndpoint(page.html) : null;
  // An empty href names the page itself; the endpoint's query string is kept (§3.1.2).
  return found === null ? null : absoluteUrl(found, page.url);
}

/** What a version of a post says: a new hash sends its mentions again. */
export function postVersion(post: { title: string; contentHtml: string | null }): string {
  return createHash("sha256")
    .update(`${post.title}\n${post.contentHtml ?? ""}`)
    .digest("hex")
    .slice(0, 32);
}

/** The other sites a post's rendered body links to, once each (the site's own pages are not notified). */
export function externalLinks(contentHtml: string, siteUrl: string): string[] {
  const site = new URL(siteUrl);
  const links = linkedUrls(contentHtml, siteUrl).filter((url) => new URL(url).host !== site.host);
  return [...new Set(links)].slice(0, MAX_TARGETS);
}

async function publishedPost(db: Db, postId: string) {
  const [post] = await db
    .select({ title: blogPosts.title, slug: blogPosts.slug, category: blogPosts.category, contentHtml: blogPosts.contentHtml })
    .from(blogPosts)
    .where(and(eq(blogPosts.id, postId), eq(blogPosts.published, true)));
  return post;
}

type SendOutcome = { target: string; endpoint: string | null; status: number | null };

/** Discovers the target's endpoint and notifies it; throws when either step can be tried again. */
async function notifyTarget(source: string, target: string): Promise<SendOutcome> {
  let page;
  try {
    page = await outboundFetch(target, { ...SOURCE_LIMITS, accept: "text/html, */*;q=0.1", userAgent: WEBMENTION_USER_AGENT });
  } catch (error) {
    // A page that is gone or refuses us will not announce an endpoint by trying again.
    if (error instanceof OutboundFetchError && error.status !== undefined && error.status < 500)
      return { target, endpoint: null, status: null };
    throw error;
  }
  const isHtml = /^\s*(text\/html|application\/xhtml\+xml)/i.test(page.contentType ?? "");
  const endpoint = discoverEndpoint({
    url: page.url,
    html: isHtml ? new TextDecoder("utf-8").decode(page.bytes) : null,
    link: page.headers.get("link"),
  });
  if (!endpoint) return { target, endpoint: null, status: null };
  try {
    const answer = await outboundFetch(endpoint, {
      timeoutMs: SOURCE_LIMITS.timeoutMs,
      maxBytes: 64_000,
      userAgent: WEBMENTION_USER_AGENT,
      form: new URLSearchParams({ source, target }),
    });
    return { target, endpoint, status: answer.status };
  } catch (error) {
    // A 4xx is the receiver's final word on this mention (e.g. it does not accept this target).
    if (error instanceof OutboundFetchError && error.status !== undefined && error.status < 500)
      return { target, endpoint, status: error.status };
    throw error;
  }
}

/**
 * Sends the Webmentions a post owes (W3C Webmention §3.1): to every page its body links to, and to
 * the pages an earlier version linked to and this one does not (so they can remove the mention),
 * each once per version of the post. A target that could not be reached keeps no row, so the job's
 * retry tries it again and skips the ones done.
 */
export async function sendPostWebmentions(db: Db, postId: string, siteUrl: string): Promise<SendOutcome[]> {
  const post = await publishedPost(db, postId);
  const category = post ? parseCategory(post.category) : null;
  if (!post || !category) return [];
  const version = postVersion(post);
  const source = `${siteUrl}${postPath(category, post.slug)}`;
  const links = externalLinks(post.contentHtml ?? "", siteUrl);
  const sent = await db
    .select({ target: webmentionSends.target, version: webmentionSends.version })
    .from(webmentionSends)
    .where(eq(webmentionSends.postId, postId));
  const done = new Set(sent.filter((row) => row.version === version).map((row) => row.target));
  const dropped = sent.filter((row) => !links.includes(row.target)).map((row) => row.target);
  const outcomes: SendOutcome[] = [];
  let failure: unknown;
  for (const target of [...links, ...dropped]) {
    if (done.has(target)) continue;
    try {
      const outcome = await notifyTarget(source, target);
      outcomes.push(outcome);
      // A page the post no longer links to has been told once: it is forgotten.
      if (!links.includes(target)) {
        await db.delete(webmentionSends).where(and(eq(webmentionSends.postId, postId), eq(webmentionSends.target, target)));
        continue;
      }
      await db
        .insert(webmentionSends)
        .values({ postId, target, version, endpoint: outcome.endpoint, status: outcome.status })
        .onConflictDoUpdate({
          target: [webmentionSends.postId, webmentionSends.target],
          set: { version, endpoint: outcome.endpoint, status: outcome.status, sentAt: new Date() },
        });
    } catch (error) {
      failure ??= error;
      logger.warn({ host: new URL(target).host, error: error instanceof Error ? error.message : String(error) }, "webmention not sent");
    }
  }
  if (failure) throw failure;
  return outcomes;
}

export const sendWebmentionsJob = defineJob(
  "webmentions.send",
  z.object({ postId: z.uuid() }),
  async ({ postId }, { db }) => {
    await sendPostWebmentions(db, postId, emailSiteUrl(await readSiteSettings(db)));
  },
  { maxAttempts: 5, timeoutMs: 120_000, retryBaseMs: 60_000 },
);

/**
 * In a post save's transaction (publish, update, scheduled publish): queue its Webmentions once per
 * version of a published post (the job's key), so saving the same text twice sends nothing new.
 */
export async function enqueuePostWebmentions(tx: Db, postId: string): Promise<void> {
  const post = await publishedPost(tx, postId);
  if (!post) return;
  await sendWebmentionsJob.enqueue(tx, { postId }, { key: `webmentions-send:${postId}:${postVersion(post)}` });
}
