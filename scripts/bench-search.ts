// Search benchmark (issue 18): p50/p95 of searchPosts — count, rank, and the page's snippets — over
// 100,000 published posts with a Zipf-like vocabulary, so queries range from rare to very common words.
// Runs on PGlite in memory, or on PostgreSQL with --url postgres://… (an empty database it may fill).
// Prints figures; asserts nothing. Usage: npm run bench:search [-- --posts 100000 --queries 200 --url …]
import { cpus, loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { searchPosts } from "~/features/search/search.server";
import { CATEGORIES } from "~/lib/categories";
import { migrateDatabase, openDatabase } from "~/server/db/client.server";
import { blogPosts } from "~/server/db/schema.server";

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
}
const POSTS = Number(arg("posts") ?? 100_000);
const QUERIES = Number(arg("queries") ?? 200);
const URL_ARG = arg("url");
const BATCH = 1000;

// A deterministic generator, so runs are comparable.
let state = 42;
function random(): number {
  state = (state * 1664525 + 1013904223) % 4294967296;
  return state / 4294967296;
}

const SYLLABLES = "ka lo mi nu pe ra si to vu we xa yo ze bri cla dro fle gri plo sta tre".split(" ");
const VOCABULARY = Array.from({ length: 5000 }, (_, i) => {
  let word = "";
  for (let n = i + 1; n > 0; n = Math.floor(n / SYLLABLES.length)) word += SYLLABLES[n % SYLLABLES.length];
  return word + "n";
});
// Zipf: word k is picked with weight 1/(k + 100) — the hundred most frequent English words are stop
// words the search never indexes (cumulative table, binary search).
const CUMULATIVE: number[] = [];
VOCABULARY.reduce((sum, _, k) => (CUMULATIVE.push(sum + 1 / (k + 100)), sum + 1 / (k + 100)), 0);
function zipfWord(): string {
  const target = random() * (CUMULATIVE.at(-1) ?? 1);
  let lo = 0;
  let hi = CUMULATIVE.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((CUMULATIVE[mid] ?? 0) < target) lo = mid + 1;
    else hi = mid;
  }
  return VOCABULARY[lo] ?? "kan";
}
const words = (n: number) => Array.from({ length: n }, zipfWord).join(" ");

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

const database = await openDatabase(URL_ARG ? { kind: "postgres", url: URL_ARG, poolSize: 2 } : { kind: "pglite-memory" });
try {
  await migrateDatabase(database);
  const { db } = database;
  const fillStart = performance.now();
  for (let done = 0; done < POSTS; done += BATCH) {
    const rows = Array.from({ length: Math.min(BATCH, POSTS - done) }, (_, i) => ({
      title: words(6),
      slug: `bench-${done + i}`,
      excerpt: words(20),
      content: words(300),
      category: CATEGORIES[(done + i) % CATEGORIES.length] ?? "Fun",
      published: (done + i) % 20 !== 0,
      publishedAt: (done + i) % 20 !== 0 ? new Date(Date.UTC(2020, 0, 1) + (done + i) * 60_000) : null,
    }));
    await db.insert(blogPosts).values(rows);
  }
  await database.db.execute("analyze blog_posts");
  console.log(`filled ${POSTS} posts in ${((performance.now() - fillStart) / 1000).toFixed(1)} s (${URL_ARG ? "PostgreSQL" : "PGlite"})`);

  const queries = Array.from({ length: QUERIES }, (_, i) =>
    i % 4 === 3 ? `"${zipfWord()} ${zipfWord()}"` : i % 2 ? `${zipfWord()} ${zipfWord()}` : zipfWord(),
  );
  for (const q of queries.slice(0, 10)) await searchPosts(db, q, 1);
  const times: number[] = [];
  let matched = 0;
  for (const q of queries) {
    const start = performance.now();
    const result = await searchPosts(db, q, 1);
    times.push(performance.now() - start);
    matched += result.total;
  }
  times.sort((a, b) => a - b);
  console.log(
    `search over ${POSTS} posts, ${QUERIES} queries (mean ${Math.round(matched / QUERIES)} matches): p50 ${percentile(times, 50).toFixed(1)} ms, p95 ${percentile(times, 95).toFixed(1)} ms, max ${(times.at(-1) ?? NaN).toFixed(1)} ms`,
  );
  console.log(
    `machine: ${cpus().length} cores, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
} finally {
  await database.close();
}
