// Database benchmark (issue 14): seeds 100,000 posts into a scratch PGlite and a scratch PostgreSQL
// (tests/helpers/postgres-cluster.ts; skipped without binaries) and prints p50/p95 of what each page's
// loader reads, through the same domain functions the routes call. Prints figures; asserts nothing.
// Usage: npm run bench:db   Env: BENCH_POSTS (100000), BENCH_RUNS (50), BENCH_DB (both | pglite | postgres).
import { sql } from "drizzle-orm";
import { aroundPost } from "~/features/posts/around-post.server";
import { getSitemapDates, listPublishedPostsForSitemap } from "~/features/posts/home-posts.server";
import { postBodyOf } from "~/features/posts/post-render.server";
import { getPostStats } from "~/features/posts/post-stats.server";
import { findMovedPost, getReadablePost, listAdminPosts, listFeedPosts, listPublishedPosts } from "~/features/posts/posts.server";
import { buildRss } from "~/features/posts/rss.server";
import { tableOfContents } from "~/features/posts/table-of-contents.server";
import { countProjects } from "~/features/projects/project-admin.server";
import { buildPagesSitemap, buildPostsSitemap, buildSitemapIndex, SITEMAP_MAX_URLS } from "~/features/site/sitemap";
import { srcSetsFor } from "~/features/uploads/uploads.server";
import { CATEGORIES, type Category } from "~/lib/categories";
import { migrateDatabase, openDatabase, type Database, type Db } from "~/server/db/client.server";
import { vacuumListingTable } from "~/server/db/vacuum.server";
import { startPostgresCluster } from "../tests/helpers/postgres-cluster";

const POSTS = Number(process.env.BENCH_POSTS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 50);
const WHICH = process.env.BENCH_DB ?? "both";
const SITE = "https://example.com";
const AUTHORS = 5;

/**
 * Data shaped like a real blog's: 1 in 10 posts unpublished (half of those scheduled), published
 * posts with their published_at, five authors, a stored rendering with headings (the table of
 * contents), and 1 in 100 posts moved once (an old address: RSS guids and redirects read it).
 */
async function seed(database: Database): Promise<void> {
  await migrateDatabase(database);
  const db = database.db;
  const categories = sql.raw(`array[${CATEGORIES.map((c) => `'${c}'`).join(",")}]`);
  await db.execute(sql`
    insert into "user" (id, name, email)
    select 'author-' || a, 'Author ' || a, 'author' || a || '@example.com' from generate_series(1, ${AUTHORS}) as a`);
  await db.execute(sql`
    insert into blog_posts (title, slug, content, content_html, content_text, excerpt, category, published, featured,
                            author_id, created_at, published_at, scheduled_at, updated_at)
    select 'Post ' || i, 'post-' || i,
           '## Why' || chr(10) || repeat('Words of post ' || i || '. ', 15) || chr(10) || '## How' || chr(10)
             || repeat('More words. ', 15) || chr(10) || '## Next' || chr(10) || 'The end.',
           '<h2 id="why">Why</h2><p>' || repeat('Words of post ' || i || '. ', 15) || '</p><h2 id="how">How</h2><p>'
             || repeat('More words. ', 15) || '</p><h2 id="next">Next</h2><p>The end.</p>',
           'Why ' || repeat('Words of post ' || i || '. ', 15) || 'How ' || repeat('More words. ', 15) || 'Next The end.',
           'Excerpt ' || i, (${categories})[1 + i % 7], i % 10 <> 0, i % 1000 = 0,
           'author-' || (1 + i % ${AUTHORS}),
           now() - (i || ' minutes')::interval * 50,
           case when i % 10 <> 0 then now() - (i || ' minutes')::interval * 50 + interval '1 hour' end,
           case when i % 20 = 0 then now() + (i || ' minutes')::interval end,
           now() - (i || ' minutes')::interval * 40
    from generate_series(1, ${POSTS}) as i`);
  await db.execute(sql`
    insert into post_redirects (category, slug, post_id, created_at)
    select p.category, 'old-' || p.slug, p.id, p.created_at from blog_posts p where p.slug like '%00'`);
  await db.execute(sql`analyze`);
  // What the site does a few minutes after such an import: PostgreSQL's autovacuum, or on PGlite the
  // pglite.vacuum task (app/server/db/vacuum.server.ts). Listings' index-only scans rely on it.
  if (!(await vacuumListingTable(db))) throw new Error("blog_posts was not vacuumed after the seed");
}

async function time(label: string, fn: (run: number) => Promise<unknown>): Promise<string> {
  await fn(0);
  const samples: number[] = [];
  for (let i = 1; i <= RUNS; i++) {
    const started = performance.now();
    await fn(i);
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  const pct = (p: number) => (samples[Math.min(samples.length - 1, Math.floor((p / 100) * samples.length))] ?? 0).toFixed(1);
  return `  ${label.padEnd(40)} p50 ${pct(50).padStart(8)} ms   p95 ${pct(95).padStart(8)} ms`;
}

/** A published post's slug, a different one every run (published: i % 10 <> 0). */
function publishedSlug(run: number): string {
  const i = 1 + ((run * 7919) % POSTS);
  return `post-${i % 10 === 0 ? i + 1 : i}`;
}

// What the loaders read (app/routes/…): the same domain functions, in the same order.
async function categoryPage(db: Db, category: Category, page: number) {
  const listing = await listPublishedPosts(db, category, page);
  return srcSetsFor(
    db,
    listing.posts.map((p) => p.featuredImageUrl),
  );
}

async function postPage(db: Db, slug: string) {
  const post = await getReadablePost(db, slug, null);
  if (!post) throw new Error(`no post ${slug}`);
  const [, body, around] = await Promise.all([
    srcSetsFor(db, [post.featuredImageUrl, ...post.media.map((m) => m.mediaUrl)]),
    postBodyOf(db, post),
    aroundPost(db, post),
  ]);
  return { toc: tableOfContents(body.html), around };
}

async function sitemapPostsFile(db: Db, file: number) {
  const { count } = await getSitemapDates(db);
  if (count < (file - 1) * SITEMAP_MAX_URLS) throw new Error("no such file");
  return buildPostsSitemap(SITE, await listPublishedPostsForSitemap(db, file, SITEMAP_MAX_URLS));
}

async function bench(kind: string, database: Database): Promise<void> {
  const seeded = performance.now();
  await seed(database);
  console.log(
    `\n${kind}: ${POSTS.toLocaleString("en-US")} posts seeded in ${((performance.now() - seeded) / 1000).toFixed(1)} s, ${RUNS} runs per query`,
  );
  const db = database.db;
  // A page halfway down the listing (page ~500 at 100,000 posts): a fixed number 404s on a smaller seed.
  const { pageCount } = await listPublishedPosts(db, "Faith", 1);
  const deepPage = Math.ceil(pageCount / 2);
  const lines = [
    await time("category page (first)", (run) => categoryPage(db, CATEGORIES[run % CATEGORIES.length] ?? "Faith", 1)),
    await time("category page (page 2)", () => categoryPage(db, "Faith", 2)),
    await time(`category page (page ${deepPage} of ${pageCount})`, () => categoryPage(db, "Faith", deepPage)),
    await time("a post (post, related, prev/next, TOC)", (run) => postPage(db, publishedSlug(run))),
    await time("a moved post's old address", () => findMovedPost(db, "Faith", "old-post-500", null)),
    await time("blog management, first page", () => listAdminPosts(db, "all", 1)),
    await time("blog management, drafts", () => listAdminPosts(db, "drafts", 1)),
    await time("blog management, scheduled", () => listAdminPosts(db, "scheduled", 1)),
    await time("blog management, published page 20", () => listAdminPosts(db, "published", 20)),
    await time("dashboard counts", () => Promise.all([getPostStats(db), countProjects(db)])),
    await time("sitemap index", async () => {
      const dates = await getSitemapDates(db);
      return buildSitemapIndex(SITE, dates.count, dates.newest);
    }),
    await time("sitemap pages.xml", async () => buildPagesSitemap(SITE, await getSitemapDates(db))),
    await time("sitemap posts-1.xml (query only)", () => listPublishedPostsForSitemap(db, 1, SITEMAP_MAX_URLS)),
    await time("sitemap posts-1.xml (50,000 URLs, built)", () => sitemapPostsFile(db, 1)),
    await time("sitemap posts-1.xml at 10,000 per file", () => listPublishedPostsForSitemap(db, 1, 10_000)),
    await time("RSS (newest 20)", async () => buildRss(SITE, null, await listFeedPosts(db, null), "Bench")),
    await time("category RSS (newest 20)", async () => buildRss(SITE, "Fun", await listFeedPosts(db, "Fun"), "Bench")),
  ];
  for (const line of lines) console.log(line);
}

if (WHICH !== "postgres") {
  const pglite = await openDatabase({ kind: "pglite-memory" });
  try {
    await bench("PGlite (in memory)", pglite);
  } finally {
    await pglite.close();
  }
}

if (WHICH !== "pglite") {
  const cluster = await startPostgresCluster();
  if ("skipped" in cluster) {
    console.log(`\nPostgreSQL: skipped (${cluster.skipped})`);
  } else {
    try {
      const postgres = await openDatabase({ kind: "postgres", url: cluster.url, poolSize: 5 });
      try {
        await bench("PostgreSQL", postgres);
      } finally {
        await postgres.close();
      }
    } finally {
      cluster.stop();
    }
  }
}
