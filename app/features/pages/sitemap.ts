import { CATEGORIES, categoryPath, postPath, type Category } from "~/lib/categories";
import { escapeXml } from "~/lib/xml";

const PUBLIC_PAGES = ["/", "/about", "/recent-roles", "/projects", "/testimonials", "/contact"] as const;

export interface SitemapPost {
  slug: string;
  category: Category;
  updatedAt: Date;
}

/** What the pages' sitemap needs: the newest post change overall and per category. */
export interface SitemapDates {
  newest: Date | null;
  newestByCategory: Partial<Record<Category, Date>>;
}

interface Entry {
  path: string;
  lastmod?: string;
}

/** A path the URL parser leaves as it is: slash-separated segments of unreserved characters, none a dot segment. */
const PLAIN_PATH = /^\/(?:(?!\.)[\w~.-]+\/?)*$/;

/**
 * Absolute, escaped URLs of the site's paths. A posts' file has 50,000 of them, so a plain path (every
 * post's) is appended to the site's origin instead of going through the URL parser: same string.
 */
function absoluteUrls(publicUrl: string): (path: string) => string {
  const base = `${publicUrl}/`;
  const origin = new URL("/", base).href.slice(0, -1);
  const escapedOrigin = escapeXml(origin);
  return (path) => (PLAIN_PATH.test(path) ? escapedOrigin + path : escapeXml(new URL(path, base).toString()));
}

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';

function urlSet(publicUrl: string, entries: Entry[]): string {
  const absolute = absoluteUrls(publicUrl);
  const urls = entries
    .map(({ path, lastmod }) => `  <url><loc>${absolute(path)}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ""}</url>`)
    .join("\n");
  return `${XML_HEAD}<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
}

/**
 * How many posts' files there are: the fewest, as a power of two, that hold `perFile` posts or fewer
 * on average (SITEMAP_POSTS_PER_FILE; the protocol's limit is 50,000 per file). A power of two, so
 * that each file is an equal share of the ids' range (postsFileIds) and a file splits in two when
 * the count doubles.
 */
export function postsFileCount(publishedPosts: number, perFile: number): number {
  if (publishedPosts <= 0) return 0;
  let files = 1;
  while (files * perFile < publishedPosts) files *= 2;
  return files;
}

/** The ids of a posts' file: from `from` (included) to `below` (excluded; null: to the end). */
export interface PostsFileIds {
  from: string;
  below: string | null;
}

const ID_BITS = 128n;

/** A uuid as PostgreSQL writes it, from its 128 bits. */
export function uuidOf(value: bigint): string {
  const hex = value.toString(16).padStart(32, "0");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Which posts file `file` (1-based) of `files` holds: the file-th equal share of the ids' range.
 * Post ids are random (UUID v4), so each file holds its share of the posts, give or take a few
 * percent, and a post stays in its file until the number of files doubles or halves (each file then
 * splits in two or pairs up), whatever is published, unpublished or deleted meanwhile. Reading a file
 * is a range of the (published, id) index: the same cost for the last file as for the first, where
 * files in creation order would skip all the earlier posts (docs/decisions/0042-db-tails.md).
 */
export function postsFileIds(file: number, files: number): PostsFileIds {
  const width = (1n << ID_BITS) / BigInt(files);
  const from = uuidOf(BigInt(file - 1) * width);
  return { from, below: file < files ? uuidOf(BigInt(file) * width) : null };
}

/** The addresses of the sitemaps that /sitemap.xml lists: the pages, then the posts' files. */
export function sitemapPaths(publishedPosts: number, perFile: number): string[] {
  const postFiles = postsFileCount(publishedPosts, perFile);
  return ["/sitemaps/pages.xml", ...Array.from({ length: postFiles }, (_, i) => `/sitemaps/posts-${i + 1}.xml`)];
}

/** /sitemap.xml: an index of the sitemaps, with the newest change as every file's lastmod. */
export function buildSitemapIndex(publicUrl: string, publishedPosts: number, newest: Date | null, perFile: number): string {
  const lastmod = newest ? `<lastmod>${newest.toISOString()}</lastmod>` : "";
  const absolute = absoluteUrls(publicUrl);
  const items = sitemapPaths(publishedPosts, perFile)
    .map((path) => `  <sitemap><loc>${absolute(path)}</loc>${lastmod}</sitemap>`)
    .join("\n");
  return `${XML_HEAD}<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${items}\n</sitemapindex>\n`;
}

/**
 * The public pages, the seven categories and the owner's published pages; a listing changes when one
 * of its posts does.
 */
export function buildPagesSitemap(
  publicUrl: string,
  dates: SitemapDates,
  ownerPages: ReadonlyArray<{ path: string; updatedAt: Date }> = [],
): string {
  return urlSet(publicUrl, [
    ...PUBLIC_PAGES.map((path) => ({ path, lastmod: path === "/" ? dates.newest?.toISOString() : undefined })),
    ...CATEGORIES.map((category) => ({ path: categoryPath(category), lastmod: dates.newestByCategory[category]?.toISOString() })),
    ...ownerPages.map((page) => ({ path: page.path, lastmod: page.updatedAt.toISOString() })),
  ]);
}

/** One file of published posts. */
export function buildPostsSitemap(publicUrl: string, posts: SitemapPost[]): string {
  return urlSet(
    publicUrl,
    posts.map((post) => ({ path: postPath(post.category, post.slug), lastmod: post.updatedAt.toISOString() })),
  );
}

/** A sitemap file's response: crawlers may keep it ten minutes. */
export function sitemapResponse(xml: string): Response {
  return new Response(xml, { headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=600" } });
}
