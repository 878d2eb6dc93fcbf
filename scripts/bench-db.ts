// Database benchmark (issue 14): seeds 100,000 posts into a scratch PGlite and a scratch PostgreSQL
// (tests/helpers/postgres-cluster.ts; skipped without binaries) and prints p50/p95 per query of the
// pages that read listings. Prints figures; asserts nothing. Usage: npm run bench:db
// Env: BENCH_POSTS (100000), BENCH_RUNS (50).
import { sql } from "drizzle-orm";
import { getSitemapDates, listPublishedPostsForSitemap } from "~/features/posts/home-posts.server";
import { getPostStats } from "~/features/posts/post-stats.server";
import { getPostBySlug, listAdminPosts, listFeedPosts, listPublishedPosts } from "~/features/posts/posts.server";
import { CATEGORIES } from "~/lib/categories";
import { migrateDatabase, openDatabase, type Database } from "~/server/db/client.server";
import { startPostgresCluster } from "../tests/helpers/postgres-cluster";

const POSTS = Number(process.env.BENCH_POSTS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 50);

async function seed(database: Database): Promise<void> {
  await migrateDatabase(database);
  const categories = sql.raw(`array[${CATEGORIES.map((c) => `'${c}'`).join(",")}]`);
  // One statement: ~1 in 10 posts is a draft, dates spread over ten years, one category each.
  await database.db.execute(sql`
    insert into blog_posts (title, slug, content, excerpt, category, published, featured, created_at, updated_at)
    select 'Post ' || i, 'post-' || i, repeat('Words of post ' || i || '. ', 40), 'Excerpt ' || i,
           (${categories})[1 + i % 7], i % 10 <> 0, i % 1000 = 0,
           now() - (i || ' minutes')::interval * 50, now() - (i || ' minutes')::interval * 40
    from generate_series(1, ${POSTS}) as i`);
  await database.db.execute(sql`analyze blog_posts`);
}

async function time(label: string, fn: () => Promise<unknown>): Promise<string> {
  await fn();
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    await fn();
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  const pct = (p: number) => (samples[Math.min(samples.length - 1, Math.floor((p / 100) * samples.length))] ?? 0).toFixed(1);
  return `  ${label.padEnd(36)} p50 ${pct(50).padStart(8)} ms   p95 ${pct(95).padStart(8)} ms`;
}

async function bench(kind: string, database: Database): Promise<void> {
  const seeded = performance.now();
  await seed(database);
  console.log(
    `\n${kind}: ${POSTS.toLocaleString("en-US")} posts seeded in ${((performance.now() - seeded) / 1000).toFixed(1)} s, ${RUNS} runs per query`,
  );
  const db = database.db;
  const lines = [
    await time("category page (first)", () => listPublishedPosts(db, "Faith", 1)),
    await time("category page (page 500)", () => listPublishedPosts(db, "Faith", 500)),
    await time("a post", () => getPostBySlug(db, `post-${Math.floor(POSTS / 2)}`)),
    await time("blog management, first page", () => listAdminPosts(db, "all", 1)),
    await time("blog management, drafts", () => listAdminPosts(db, "drafts", 1)),
    await time("dashboard counts", () => getPostStats(db)),
    await time("sitemap index (counts)", () => getSitemapDates(db)),
    await time("sitemap posts file 1 (50,000)", () => listPublishedPostsForSitemap(db, 1)),
    await time("RSS (newest 20)", () => listFeedPosts(db, null)),
    await time("category RSS (newest 20)", () => listFeedPosts(db, "Fun")),
  ];
  for (const line of lines) console.log(line);
}

const pglite = await openDatabase({ kind: "pglite-memory" });
try {
  await bench("PGlite (in memory)", pglite);
} finally {
  await pglite.close();
}

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
