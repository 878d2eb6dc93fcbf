// Database benchmark: seeds 100,000 posts into a scratch PGlite and a scratch PostgreSQL
// (tests/helpers/postgres-cluster.ts; skipped without binaries) and prints p50/p95 of what each page's
// loader reads, through the same domain functions the routes call. Prints figures; asserts nothing.
// Usage: npm run bench:db   Env: BENCH_POSTS (100000), BENCH_RUNS (50), BENCH_DB (both | pglite | postgres),
// BENCH_PROFILE (a directory: one CPU profile per query, and its busiest functions printed), and the
// app's SITEMAP_POSTS_PER_FILE (1000).
//
// Besides wall-clock p50/p95, each line prints the CPU time this process spent per run and the load
// average while it ran: on a shared machine a p95 far above its CPU time is time spent waiting for a
// CPU, not work. On PGlite the database runs in this process, so its CPU time is the query's whole
// cost; on PostgreSQL it is the client's share only (sending, parsing, mapping rows).
import { mkdirSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import os, { loadavg } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { aroundPost } from "~/features/posts/read/around-post.server";
import { getSitemapDates, listPublishedPostsForSitemap } from "~/features/posts/read/home-posts.server";
import { postBodyOf } from "~/features/posts/content/post-render.server";
import { getPostStats } from "~/features/posts/read/post-counts.server";
import { findMovedPost, getReadablePost, listAdminPosts, listFeedPosts, listPublishedPosts } from "~/features/posts/write/posts.server";
import { buildRss } from "~/features/posts/read/rss.server";
import { tableOfContents } from "~/features/posts/content/table-of-contents.server";
import { countProjects } from "~/features/projects/project-admin.server";
import { buildPagesSitemap, buildPostsSitemap, buildSitemapIndex, postsFileCount, postsFileIds } from "~/features/pages/sitemap";
import { srcSetsFor } from "~/features/uploads/uploads.server";
import { CATEGORIES, type Category } from "~/lib/categories";
import { migrateDatabase, openDatabase, type Database, type Db } from "~/server/db/client.server";
import { queryRows } from "~/server/db/query-rows.server";
import { vacuumListingTable } from "~/server/db/vacuum.server";
import { getEnv } from "~/server/env.server";
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

const PROFILE_DIR = process.env.BENCH_PROFILE;
const inspector = PROFILE_DIR ? new Session() : null;

const cpuProfileSchema = z.object({
  nodes: z.array(
    z.object({
      id: z.number(),
      callFrame: z.object({ functionName: z.string(), url: z.string(), lineNumber: z.number() }),
    }),
  ),
  samples: z.array(z.number()).default([]),
  timeDeltas: z.array(z.number()).default([]),
});

/** Whose code a profile node runs: the database (PGlite's WebAssembly), a package, ours, Node's or V8's. */
function ownerOf(url: string, functionName: string): string {
  if (url.startsWith("wasm://")) return "postgres (wasm)";
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (pkg) return pkg;
  if (/\/(app|scripts)\//.test(url)) return "ours";
  if (url.startsWith("node:")) return "node";
  return functionName || "(native)";
}

/**
 * Where a query's CPU went: shares by owner (postgres itself, PGlite's JS protocol parsing, drizzle,
 * our code, GC), then the functions with the most self time.
 */
function busiestFunctions(profile: z.infer<typeof cpuProfileSchema>, top = 5): string {
  const frames = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const byOwner = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let total = 0;
  const add = (map: Map<string, number>, key: string, us: number) => map.set(key, (map.get(key) ?? 0) + us);
  // The first sample's delta is the time since the profiler started, not a sample's.
  profile.samples.forEach((id, i) => {
    const frame = frames.get(id);
    const us = profile.timeDeltas[i] ?? 0;
    if (i === 0 || !frame || frame.functionName === "(idle)") return;
    const file = frame.url.replace(/^.*\/node_modules\//, "").replace(/^file:\/\/.*?\/(app|scripts)\//, "$1/");
    add(byOwner, ownerOf(frame.url, frame.functionName), us);
    add(byFunction, `${frame.functionName || "(anonymous)"} ${file ? `${file}:${frame.lineNumber + 1}` : ""}`.trim(), us);
    total += us;
  });
  const share = (us: number) => `${((100 * us) / Math.max(total, 1)).toFixed(0)} %`;
  const sorted = (map: Map<string, number>) => [...map.entries()].sort((x, y) => y[1] - x[1]);
  const owners = sorted(byOwner)
    .slice(0, 7)
    .map(([owner, us]) => `${owner} ${share(us)}`)
    .join(", ");
  const functions = sorted(byFunction)
    .slice(0, top)
    .map(([name, us]) => `      ${share(us).padStart(5)}  ${name}`);
  return [`      by owner: ${owners}`, ...functions].join("\n");
}

const ms = (micros: number) => micros / 1000;

/** Times one query kind: `prefix` names its profile file (one per database). */
/** Runs `fn` with Blog Management's trigram index dropped, then builds it again (drizzle/0039_29-title-trgm.sql). */
async function withoutTitleTrigramIndex(db: Db, fn: () => Promise<string[]>): Promise<string[]> {
  await db.execute(sql`drop index if exists blog_posts_title_trgm_idx`);
  try {
    return await fn();
  } finally {
    await db.execute(sql`create index if not exists blog_posts_title_trgm_idx on blog_posts using gin (title gin_trgm_ops)`);
  }
}

async function time(prefix: string, label: string, fn: (run: number) => Promise<unknown>): Promise<string> {
  await fn(0);
  if (inspector) await inspector.post("Profiler.start");
  const wall: number[] = [];
  const cpu: number[] = [];
  const loads: number[] = [];
  for (let i = 1; i <= RUNS; i++) {
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    await fn(i);
    wall.push(performance.now() - started);
    const used = process.cpuUsage(cpuBefore);
    cpu.push(ms(used.user + used.system));
    loads.push(loadavg()[0] ?? 0);
  }
  let profileLines = "";
  if (inspector && PROFILE_DIR) {
    const { profile } = await inspector.post("Profiler.stop");
    const file = path.join(PROFILE_DIR, `${`${prefix} ${label}`.replace(/[^a-z0-9]+/gi, "-").replace(/^-|-$/g, "")}.cpuprofile`);
    writeFileSync(file, JSON.stringify(profile));
    profileLines = `\n${busiestFunctions(cpuProfileSchema.parse(profile))}`;
  }
  const pct = (values: number[], p: number) => {
    const sorted = [...values].sort((a, b) => a - b);
    return (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0).toFixed(1);
  };
  const load = `${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)}`;
  return (
    `  ${label.padEnd(40)} p50 ${pct(wall, 50).padStart(7)} ms  p95 ${pct(wall, 95).padStart(7)} ms` +
    `   cpu p50 ${pct(cpu, 50).padStart(7)} ms  p95 ${pct(cpu, 95).padStart(7)} ms   load ${load}${profileLines}`
  );
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

const PER_FILE = getEnv().SITEMAP_POSTS_PER_FILE;

/** What /sitemaps/posts-N.xml does (app/routes/sitemaps.ts); "last": the last file. */
async function sitemapPostsFile(db: Db, which: number | "last") {
  const { count } = await getSitemapDates(db);
  const files = postsFileCount(count, PER_FILE);
  const file = which === "last" ? files : which;
  if (file > files) throw new Error("no such file");
  return buildPostsSitemap(SITE, await listPublishedPostsForSitemap(db, postsFileIds(file, files)));
}

async function bench(kind: string, database: Database): Promise<void> {
  const seeded = performance.now();
  await seed(database);
  console.log(
    `\n${kind}: ${POSTS.toLocaleString("en-US")} posts seeded in ${((performance.now() - seeded) / 1000).toFixed(1)} s, ${RUNS} runs per query` +
      `, ${os.availableParallelism()} CPUs, load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")}` +
      (kind.startsWith("PGlite") ? " (cpu: the query's whole cost, in this process)" : " (cpu: this client's share only)"),
  );
  const db = database.db;
  // A page halfway down the listing (page ~500 at 100,000 posts): a fixed number 404s on a smaller seed.
  const { pageCount } = await listPublishedPosts(db, "Faith", 1);
  const deepPage = Math.ceil(pageCount / 2);
  const files = postsFileCount((await getSitemapDates(db)).count, PER_FILE);
  // Blog Management cursors: the post halfway down each order (keyset: the page after it).
  const cursorAt = async (order: string, where = "true", offset = Math.floor(POSTS / 2)) => {
    const rows = await queryRows(
      db,
      sql.raw(`select id from blog_posts where ${where} order by ${order} offset ${offset} limit 1`),
      z.object({ id: z.string() }),
    );
    const id = rows[0]?.id;
    if (!id) throw new Error(`no post at ${offset} by ${order}`);
    return id;
  };
  const cursors = {
    second: await cursorAt("updated_at desc, id desc", "true", 49),
    updated: await cursorAt("updated_at desc, id desc"),
    published: await cursorAt("updated_at desc, id desc", "published", Math.floor(POSTS / 3)),
    date: await cursorAt("coalesce(published_at, created_at) desc, id desc"),
    title: await cursorAt("lower(title), id"),
    status: await cursorAt("published, scheduled_at is not null, scheduled_at nulls last, updated_at desc, id desc"),
    faith: await cursorAt("updated_at desc, id desc", "category = 'Faith'", Math.floor(POSTS / 14)),
  };
  const postsFile = { files, first: (await listPublishedPostsForSitemap(db, postsFileIds(1, files))).length };
  const lines = [
    await time(kind, "category page (first)", (run) => categoryPage(db, CATEGORIES[run % CATEGORIES.length] ?? "Faith", 1)),
    await time(kind, "category page (page 2)", () => categoryPage(db, "Faith", 2)),
    await time(kind, `category page (page ${deepPage} of ${pageCount})`, () => categoryPage(db, "Faith", deepPage)),
    await time(kind, "a post (post, related, prev/next, TOC)", (run) => postPage(db, publishedSlug(run))),
    await time(kind, "a moved post's old address", () => findMovedPost(db, "Faith", "old-post-500", null)),
    await time(kind, "blog management, first page", () => listAdminPosts(db, "all")),
    await time(kind, "blog management, drafts", () => listAdminPosts(db, "drafts")),
    await time(kind, "blog management, scheduled", () => listAdminPosts(db, "scheduled")),
    await time(kind, "blog management, next page (page 2)", () => listAdminPosts(db, "all", { after: cursors.second })),
    await time(kind, "blog management, halfway (after)", () => listAdminPosts(db, "all", { after: cursors.updated })),
    await time(kind, "blog management, halfway (before)", () => listAdminPosts(db, "all", { before: cursors.updated })),
    await time(kind, "blog management, published, halfway", () => listAdminPosts(db, "published", { after: cursors.published })),
    await time(kind, "blog management, by date, halfway", () => listAdminPosts(db, "all", { after: cursors.date }, { sort: "date" })),
    await time(kind, "blog management, by title, halfway", () => listAdminPosts(db, "all", { after: cursors.title }, { sort: "title" })),
    await time(kind, "blog management, by status, halfway", () => listAdminPosts(db, "all", { after: cursors.status }, { sort: "status" })),
    await time(kind, "blog management, one category, halfway", () =>
      listAdminPosts(db, "all", { after: cursors.faith }, { category: "Faith" }),
    ),
    await time(kind, "blog management, title search", (run) => listAdminPosts(db, "all", {}, { title: `post ${run}9` })),
    await time(kind, "blog management, title search, a title nobody has", (run) =>
      listAdminPosts(db, "all", {}, { title: `nobody ${run}` }),
    ),
    // The reference, in the same run: the same searches without the trigram index (a site whose
    // PostgreSQL lacks pg_trgm), then the index back.
    ...(await withoutTitleTrigramIndex(db, async () => [
      await time(kind, "blog management, title search, no trigram index", (run) =>
        listAdminPosts(db, "all", {}, { title: `post ${run}9` }),
      ),
      await time(kind, "blog management, title search, a title nobody has, no trigram index", (run) =>
        listAdminPosts(db, "all", {}, { title: `nobody ${run}` }),
      ),
    ])),
    await time(kind, "dashboard counts", () => Promise.all([getPostStats(db), countProjects(db)])),
    await time(kind, "sitemap index", async () => {
      const dates = await getSitemapDates(db);
      return buildSitemapIndex(SITE, dates.count, dates.newest, PER_FILE);
    }),
    await time(kind, "sitemap pages.xml", async () => buildPagesSitemap(SITE, await getSitemapDates(db))),
    await time(kind, `sitemap posts-1.xml (query only, ${postsFile.first} URLs)`, () =>
      listPublishedPostsForSitemap(db, postsFileIds(1, postsFile.files)),
    ),
    await time(kind, "sitemap posts-1.xml (first file, built)", () => sitemapPostsFile(db, 1)),
    await time(kind, `sitemap posts-${postsFile.files}.xml (last file, built)`, () => sitemapPostsFile(db, "last")),
    await time(kind, "RSS (newest 20)", async () => buildRss(SITE, null, await listFeedPosts(db, null), "Bench")),
    await time(kind, "category RSS (newest 20)", async () =>
      buildRss(SITE, { category: "Fun", description: "Fun" }, await listFeedPosts(db, "Fun"), "Bench"),
    ),
  ];
  for (const line of lines) console.log(line);
}

if (PROFILE_DIR && inspector) {
  mkdirSync(PROFILE_DIR, { recursive: true });
  inspector.connect();
  await inspector.post("Profiler.enable");
  await inspector.post("Profiler.setSamplingInterval", { interval: 200 });
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
