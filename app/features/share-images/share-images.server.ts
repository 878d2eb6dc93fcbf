import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { longDate } from "~/lib/dates";
import { DEFAULT_FONT_PAIRING, FONT_PAIRING_IDS } from "~/lib/font-pairings";
import { CATEGORIES, type Category } from "~/lib/categories";
import type { SeoImage } from "~/lib/seo";
import type { Db } from "~/server/db/client.server";
import { blogPosts } from "~/server/db/schema.server";
import { defineJob } from "~/server/jobs/jobs.server";
import { logger } from "~/server/logger.server";
import { getStorage } from "~/server/storage.server";
import {
  renderShareCard,
  shareCardAlt,
  shareCardHash,
  SHARE_IMAGE_HEIGHT,
  type CardSite,
  SHARE_IMAGE_TYPE,
  SHARE_IMAGE_WIDTH,
  type ShareCard,
} from "./share-card.server";

/** Where the images live in the storage (local or S3): one object per card, named by its hash. */
const STORAGE_PREFIX = "share-images";
const URL_PREFIX = "/share-images";
const CATEGORY_EYEBROW = "7 Fs Framework";

export type ShareSubject = { kind: "post"; id: string } | { kind: "category"; category: Category };

export type { CardSite };

/** The site's name and brand, as a card shows them (the settings record has more). */
function brandOf({ siteName, accentColor, fontPairing }: CardSite): CardSite {
  return { siteName, accentColor, fontPairing };
}

export function postShareCard(post: { title: string; category: Category; publishedAt: Date | string }, site: CardSite): ShareCard {
  return { title: post.title, eyebrow: post.category, ...brandOf(site), date: longDate(post.publishedAt) };
}

export function categoryShareCard(category: Category, site: CardSite): ShareCard {
  return { title: category, eyebrow: CATEGORY_EYEBROW, ...brandOf(site), date: null };
}

function subjectPath(subject: ShareSubject): string {
  return subject.kind === "post" ? `post/${subject.id}` : `category/${subject.category}`;
}

/** The image of a page: its URL names the subject (to draw it again if it is missing) and the card's hash. */
export function shareImageOf(subject: ShareSubject, card: ShareCard): SeoImage {
  return {
    url: `${URL_PREFIX}/${subjectPath(subject)}/${shareCardHash(card)}.png`,
    width: SHARE_IMAGE_WIDTH,
    height: SHARE_IMAGE_HEIGHT,
    type: SHARE_IMAGE_TYPE,
    alt: shareCardAlt(card),
  };
}

function storageKey(card: ShareCard): string {
  return `${STORAGE_PREFIX}/${shareCardHash(card)}.png`;
}

// One drawing at a time per process (it is CPU-bound and the machine may be small), and one per card:
// concurrent requests for a missing image wait for the same drawing.
let drawing: Promise<unknown> = Promise.resolve();
const inFlight = new Map<string, Promise<Buffer>>();

function drawOneAtATime(card: ShareCard): Promise<Buffer> {
  // satori's and resvg's memory is the card worker's, handed back when it ends (card-worker.server.ts).
  const next = drawing.then(() => renderShareCard(card));
  drawing = next.catch(() => undefined);
  return next;
}

/**
 * The card's PNG: from the storage, or drawn and stored once. Several instances may draw the same
 * card at the same time; they store the same bytes under the same key, so the last write is harmless.
 */
export function shareImagePng(card: ShareCard): Promise<Buffer> {
  const key = storageKey(card);
  const pending = inFlight.get(key);
  if (pending) return pending;
  const work = (async () => {
    const storage = getStorage();
    const stored = await storage.get(key);
    if (stored) return stored.body;
    const png = await drawOneAtATime(card);
    await storage.put(key, png, SHARE_IMAGE_TYPE);
    logger.info({ key }, "share image drawn");
    return png;
  })().finally(() => inFlight.delete(key));
  inFlight.set(key, work);
  return work;
}

const cardSchema = z.object({
  title: z.string().min(1).max(500),
  eyebrow: z.string().min(1).max(100),
  siteName: z.string().min(1).max(200),
  date: z.string().max(100).nullable(),
  // Jobs queued before cards had a brand draw the default look.
  accentColor: z
    .string()
    .regex(/^(#[0-9a-f]{6})?$/)
    .default(""),
  fontPairing: z.enum(FONT_PAIRING_IDS).default(DEFAULT_FONT_PAIRING),
});

/** Draws and stores a card ahead of the first reader or scraper (idempotent: a stored card is kept). */
export const shareImageJob = defineJob(
  "share-images.draw",
  cardSchema,
  async (card) => {
    await shareImagePng(card);
  },
  { maxAttempts: 3 },
);

/** In a write's transaction: the card is drawn once the write commits (one job per distinct card). */
export async function enqueueShareImage(tx: Db, card: ShareCard): Promise<void> {
  await shareImageJob.enqueue(tx, card, { key: `share-image:${shareCardHash(card)}` });
}

/** What a post's card is drawn from; only published posts have one. */
const postCardColumns = {
  title: blogPosts.title,
  category: blogPosts.category,
  publishedAt: sql<Date>`coalesce(${blogPosts.publishedAt}, ${blogPosts.createdAt})`.mapWith(blogPosts.createdAt),
};
const hasCard = eq(blogPosts.published, true);

/** The card a published post shows now, or null (a draft or a deleted post has none). */
async function publishedPostCard(db: Db, postId: string, site: CardSite): Promise<ShareCard | null> {
  const [post] = await db
    .select(postCardColumns)
    .from(blogPosts)
    .where(and(eq(blogPosts.id, postId), hasCard))
    .limit(1);
  return post ? postShareCard(post, site) : null;
}

/** In a post save's transaction (create, update, scheduled publish): queue its card if it is public. */
export async function enqueuePostShareImage(tx: Db, postId: string, site: CardSite): Promise<void> {
  const card = await publishedPostCard(tx, postId, site);
  if (card) await enqueueShareImage(tx, card);
}

/** In the settings save's transaction, when the site name or brand changes: the category cards show them. */
export async function enqueueCategoryShareImages(tx: Db, site: CardSite): Promise<void> {
  for (const category of CATEGORIES) await enqueueShareImage(tx, categoryShareCard(category, site));
}

/** Whether two settings records draw different cards. */
export function cardSiteChanged(a: CardSite, b: CardSite): boolean {
  return a.siteName !== b.siteName || a.accentColor !== b.accentColor || a.fontPairing !== b.fontPairing;
}

/** The card a subject shows now; null when it has none (unknown category, draft, deleted post). */
export async function currentShareCard(db: Db, subject: ShareSubject, site: CardSite): Promise<ShareCard | null> {
  if (subject.kind === "category") return categoryShareCard(subject.category, site);
  return publishedPostCard(db, subject.id, site);
}

/** The storage keys of every card a page shows now: each published post's and each category's. */
async function currentShareImageKeys(db: Db, site: CardSite): Promise<Set<string>> {
  const keys = new Set(CATEGORIES.map((category) => storageKey(categoryShareCard(category, site))));
  const posts = await db.select(postCardColumns).from(blogPosts).where(hasCard);
  for (const post of posts) keys.add(storageKey(postShareCard(post, site)));
  return keys;
}

/**
 * Deletes the stored cards no page shows any more: a renamed post's old card (once no other post
 * shows the same one), those of a renamed or rebranded site, of unpublished and deleted posts. The store is
 * listed BEFORE the current cards are read, so a card drawn meanwhile is never taken for a stale
 * one; a stale card drawn late (a queued job) goes on the next sweep. Returns the keys deleted.
 */
export async function sweepStaleShareImages(db: Db, site: CardSite): Promise<string[]> {
  const storage = getStorage();
  const stored: string[] = [];
  for await (const object of storage.list(STORAGE_PREFIX)) stored.push(object.key);
  if (stored.length === 0) return [];
  const current = await currentShareImageKeys(db, site);
  const stale = stored.filter((key) => !current.has(key));
  for (const key of stale) await storage.delete(key);
  if (stale.length > 0) logger.info({ count: stale.length }, "stale share images deleted");
  return stale;
}
