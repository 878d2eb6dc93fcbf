// Search benchmark: p50/p95 of searchPosts — count, rank, and the page's snippets — over
// 100,000 posts (1 in 20 a draft) with a Zipf-like vocabulary of 50,000 words, on PGlite (in memory)
// and on a scratch PostgreSQL (tests/helpers/postgres-cluster.ts; skipped without binaries). The
// query mix is drawn from the generated posts' document frequencies: rare words (in at most 0.2% of
// posts), mid-frequency words (1–5%), very common words (20% and more), two words, phrases taken from
// a post, and words no post contains. Prints figures per kind of query and over all; asserts nothing.
// Usage: npm run bench:search [-- --posts 100000 --queries 40 --url postgres://… --pglite-dir DIR --before FILE]
// --url or --pglite-dir benchmark that one database only, and reuse posts an earlier run left there.
// --before FILE: a module exporting another searchPosts (e.g. main's, `git show main:…`), run
// alternately with this one on the same queries: figures before -> after in the same run, and the
// number of queries whose first page differs (posts, order, titles; and snippets apart).
import { readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { count, like, sql } from "drizzle-orm";
import { searchPosts } from "~/features/search/search.server";
import { CATEGORIES } from "~/lib/categories";
import { migrateDatabase, openDatabase, type Database, type DatabaseOptions } from "~/server/db/client.server";
import { blogPosts } from "~/server/db/schema.server";
import { startPostgresCluster } from "../tests/helpers/postgres-cluster";

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
}
const POSTS = Number(arg("posts") ?? process.env.BENCH_POSTS ?? 100_000);
const QUERIES_PER_KIND = Number(arg("queries") ?? 40);
const URL_ARG = arg("url");
const PGLITE_DIR = arg("pglite-dir");
const BEFORE = arg("before");
const BATCH = 500;
const CONTENT_WORDS = 300;

// A deterministic generator, so runs (and both databases) get the same posts and queries.
let state = 42;
function random(): number {
  state = (state * 1664525 + 1013904223) % 4294967296;
  return state / 4294967296;
}

const SYLLABLES = "ka lo mi nu pe ra si to vu we xa yo ze bri cla dro fle gri plo sta tre".split(" ");
const VOCABULARY = Array.from({ length: 50_000 }, (_, i) => {
  let word = "";
  for (let n = i + 1; n > 0; n = Math.floor(n / SYLLABLES.length)) word += SYLLABLES[n % SYLLABLES.length];
  return word + "n";
});
// Zipf: word k is picked with weight 1/(k + 100) — the hundred most frequent English words are stop
// words the search never indexes (cumulative table, binary search).
const CUMULATIVE: number[] = [];
VOCABULARY.reduce((sum, _, k) => (CUMULATIVE.push(sum + 1 / (k + 100)), sum + 1 / (k + 100)), 0);
function zipfIndex(): number {
  const target = random() * (CUMULATIVE.at(-1) ?? 1);
  let lo = 0;
  let hi = CUMULATIVE.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((CUMULATIVE[mid] ?? 0) < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
const words = (n: number) => Array.from({ length: n }, () => VOCABULARY[zipfIndex()] ?? "kan");

/** The posts, generated batch by batch; `onPost` sees each post's words (document frequencies, phrases). */
function* postBatches(onPost: (i: number, words: string[]) => void) {
  state = 42;
  for (let done = 0; done < POSTS; done += BATCH) {
    yield Array.from({ length: Math.min(BATCH, POSTS - done) }, (_, j) => {
      const i = done + j;
      const [title, excerpt, content] = [words(6), words(20), words(CONTENT_WORDS)];
      onPost(i, [...title, ...excerpt, ...content]);
      return {
        title: title.join(" "),
        slug: `bench-${i}`,
        excerpt: excerpt.join(" "),
        content: content.join(" "),
        category: CATEGORIES[i % CATEGORIES.length] ?? "Fun",
        published: i % 20 !== 0,
        publishedAt: i % 20 !== 0 ? new Date(Date.UTC(2015, 0, 1) + i * 3_600_000) : null,
      };
    });
  }
}

interface QueryMix {
  kind: string;
  queries: string[];
}

/** Counts document frequencies while generating (and inserting, when `insert` is given) the posts. */
async function generate(insert?: (rows: (typeof blogPosts.$inferInsert)[]) => Promise<unknown>): Promise<QueryMix[]> {
  const documentFrequency = new Map<string, number>();
  const phrases: string[] = [];
  for (const rows of postBatches((i, postWords) => {
    for (const word of new Set(postWords)) documentFrequency.set(word, (documentFrequency.get(word) ?? 0) + 1);
    if (i % Math.max(1, Math.floor(POSTS / QUERIES_PER_KIND)) === 7) {
      const at = 26 + Math.floor(random() * (CONTENT_WORDS - 2));
      phrases.push(`"${postWords[at]} ${postWords[at + 1]}"`);
    }
  }))
    await insert?.(rows);
  const frequency = (word: string) => (documentFrequency.get(word) ?? 0) / POSTS;
  // Spread over each band: every n-th word of the band, in vocabulary order (most frequent first).
  const band = (min: number, max: number) => {
    const found = VOCABULARY.filter((w) => frequency(w) > min && frequency(w) <= max);
    return Array.from({ length: QUERIES_PER_KIND }, (_, i) => found[Math.floor((i * found.length) / QUERIES_PER_KIND)] ?? "kan");
  };
  const [rare, mid, common] = [band(0, 0.002), band(0.01, 0.05), band(0.2, 1)];
  return [
    { kind: "rare word (≤0.2% of posts)", queries: rare },
    { kind: "mid-frequency word (1–5%)", queries: mid },
    { kind: "very common word (≥20%)", queries: common },
    { kind: "two words (mid + common)", queries: mid.map((w, i) => `${w} ${common[i] ?? ""}`) },
    { kind: "phrase from a post", queries: phrases.slice(0, QUERIES_PER_KIND) },
    { kind: "no match", queries: Array.from({ length: QUERIES_PER_KIND }, (_, i) => `qqzx${VOCABULARY[i * 7]}`) },
  ];
}

type Search = typeof searchPosts;
function isSearch(value: unknown): value is Search {
  return typeof value === "function";
}
async function searchBefore(): Promise<Search | undefined> {
  if (!BEFORE) return undefined;
  const module: unknown = await import(path.resolve(BEFORE));
  const found = typeof module === "object" && module !== null && "searchPosts" in module ? module.searchPosts : undefined;
  if (!isSearch(found)) throw new Error(`${BEFORE} exports no searchPosts`);
  return found;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}
const ms = (n: number) => `${n.toFixed(1).padStart(7)} ms`;
const figures = (times: number[]) => `p50 ${ms(percentile(times, 50))}   p95 ${ms(percentile(times, 95))}   max ${ms(times.at(-1) ?? NaN)}`;
type Page = Awaited<ReturnType<Search>>;
// The posts and their order must not change; a snippet may (another part of the post, equally
// highlighted), so snippets are compared apart.
const samePosts = (a: Page, b: Page) =>
  a.total === b.total &&
  JSON.stringify(a.hits.map(({ snippet: _, ...hit }) => hit)) === JSON.stringify(b.hits.map(({ snippet: _, ...hit }) => hit));
const sameSnippets = (a: Page, b: Page) =>
  JSON.stringify(a.hits.map((hit) => hit.snippet)) === JSON.stringify(b.hits.map((hit) => hit.snippet));

const meanMs = (list: number[]) => `${(list.reduce((sum, n) => sum + n, 0) / Math.max(1, list.length)).toFixed(1)} ms`;

/**
 * CPU milliseconds spent so far by this process (PGlite runs in it) and by the PostgreSQL server
 * processes serving its connections, when they run on this machine (their time on a CPU in
 * /proc/<pid>/schedstat, in nanoseconds). Unlike latency, it hardly depends on what
 * else the machine runs: the figure to compare on a loaded machine.
 */
async function cpuMeter(database: Database): Promise<() => number> {
  const pids =
    database.kind === "postgres"
      ? (
          await database.db
            .select({ pid: sql<number>`pid` })
            .from(sql`pg_stat_activity`)
            .where(sql`datname = current_database()`)
        ).map((row) => row.pid)
      : [];
  const serverMs = () =>
    pids.reduce((sum, pid) => {
      try {
        return sum + Number(readFileSync(`/proc/${pid}/schedstat`, "utf8").split(" ")[0] ?? 0) / 1e6;
      } catch {
        return sum;
      }
    }, 0);
  return () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000 + serverMs();
  };
}

async function bench(label: string, options: DatabaseOptions): Promise<void> {
  const database: Database = await openDatabase(options);
  try {
    await migrateDatabase(database);
    const { db } = database;
    const [existing] = await db.select({ n: count() }).from(blogPosts).where(like(blogPosts.slug, "bench-%"));
    const fillStart = performance.now();
    const reuse = (existing?.n ?? 0) >= POSTS;
    const mix = await generate(reuse ? undefined : (rows) => db.insert(blogPosts).values(rows).onConflictDoNothing());
    if (!reuse) await db.execute("analyze blog_posts");
    console.log(
      `\n${label}: ${POSTS.toLocaleString("en-US")} posts ${reuse ? "already there" : "filled"} in ${((performance.now() - fillStart) / 1000).toFixed(1)} s; ${QUERIES_PER_KIND} queries per kind, first page (count, rank, snippets)`,
    );
    const before = await searchBefore();
    const cpu = await cpuMeter(database);
    const timed = async (search: Search, q: string, into: number[], cpuInto: number[]) => {
      const [start, startCpu] = [performance.now(), cpu()];
      const result = await search(db, q, 1);
      into.push(performance.now() - start);
      cpuInto.push(cpu() - startCpu);
      return result;
    };
    const all: number[] = [];
    const allBefore: number[] = [];
    let differences = 0;
    let snippetDifferences = 0;
    for (const { kind, queries } of mix) {
      for (const q of queries.slice(0, 3)) {
        await searchPosts(db, q, 1);
        await before?.(db, q, 1);
      }
      const times: number[] = [];
      const timesBefore: number[] = [];
      const cpuTimes: number[] = [];
      const cpuTimesBefore: number[] = [];
      let matched = 0;
      for (const [i, q] of queries.entries()) {
        // Alternately, so both see the same load; each runs first on every other query, so neither
        // always finds the pages the other just read in the database's cache.
        const beforeFirst = i % 2 === 0;
        const earlier = before && beforeFirst ? await timed(before, q, timesBefore, cpuTimesBefore) : undefined;
        const result = await timed(searchPosts, q, times, cpuTimes);
        const later = before && !beforeFirst ? await timed(before, q, timesBefore, cpuTimesBefore) : undefined;
        const other = earlier ?? later;
        if (other && !samePosts(other, result)) differences++;
        if (other && !sameSnippets(other, result)) snippetDifferences++;
        matched += result.total;
      }
      for (const list of [times, timesBefore]) list.sort((a, b) => a - b);
      all.push(...times);
      allBefore.push(...timesBefore);
      console.log(
        `  ${kind.padEnd(30)} ${before ? `${figures(timesBefore)}  ->  ` : ""}${figures(times)}   cpu ${before ? `${meanMs(cpuTimesBefore)} -> ` : ""}${meanMs(cpuTimes)}   mean ${Math.round(matched / queries.length)} results`,
      );
    }
    for (const list of [all, allBefore]) list.sort((a, b) => a - b);
    console.log(`  ${"all queries".padEnd(30)} ${before ? `${figures(allBefore)}  ->  ` : ""}${figures(all)}`);
    if (before)
      console.log(
        `  first pages differing before -> after: ${differences} of ${all.length} queries (posts, order, titles); snippets differing: ${snippetDifferences}`,
      );
  } finally {
    await database.close();
  }
}

if (URL_ARG) await bench("PostgreSQL", { kind: "postgres", url: URL_ARG, poolSize: 2 });
else if (PGLITE_DIR) await bench("PGlite", { kind: "pglite", dataDir: PGLITE_DIR });
else {
  await bench("PGlite (in memory)", { kind: "pglite-memory" });
  const cluster = await startPostgresCluster();
  if ("skipped" in cluster) console.log(`\nPostgreSQL: skipped (${cluster.skipped})`);
  else {
    try {
      await bench("PostgreSQL", { kind: "postgres", url: cluster.url, poolSize: 2 });
    } finally {
      cluster.stop();
    }
  }
}
console.log(
  `machine: ${cpus().length} cores, load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}`,
);
