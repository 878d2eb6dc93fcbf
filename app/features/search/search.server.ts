import { and, count, desc, eq, sql, type SQL } from "drizzle-orm";
import type { Category } from "~/lib/categories";
import { ONE_ROW, type Db } from "~/server/db/client.server";
import { unionAll } from "drizzle-orm/pg-core";
import { blogPosts } from "~/server/db/schema.server";
import { pageOffset, pageWindow } from "~/server/pagination.server";
import { newestPublishedFirst } from "~/features/posts/write/posts.server";
import { requiredPairs } from "./phrase-pairs";
import { RESULTS_PER_PAGE } from "./search-schema";
import { highlightAll, searchTerms, snippetOf, type LexemeCache } from "./snippet";

export interface SearchHit {
  id: string;
  slug: string;
  category: Category;
  title: string;
  /** Title and snippet carry the highlight markers of ./highlight around matching words. */
  titleHighlight: string;
  snippet: string;
  createdAt: Date;
}

export interface SearchResults {
  hits: SearchHit[];
  total: number;
  page: number;
  pageCount: number;
}

/**
 * At most this many matches are ranked and paged: the newest ones. Ranking reads each candidate's
 * stored vector (out of line, compressed: the costly part), so a word found in most posts ranks this
 * many posts, not tens of thousands.
 */
export const SEARCH_CANDIDATES = 200;

/**
 * The newest published posts searched first. A window holding SEARCH_CANDIDATES matches holds the
 * newest SEARCH_CANDIDATES of all (every post outside it is older), so the answer is the same, and
 * the older posts are not searched. It pays for common words: a word in 10% of 100,000 posts has its
 * 200 newest among the newest 2,000 posts, whose 200 matches are then read instead of 10,000. A rarer
 * word has few matches to read anyway; a wider window would cost more to delimit than it saves.
 */
export const SEARCH_WINDOW = 2_000;

/**
 * A window holding fewer than SEARCH_CANDIDATES matches but at least a SEARCH_WINDOW_GROWTH-th of
 * them is followed by one this many times as wide (the posts between the two starts), which
 * probably holds the rest: a word in 3% of 100,000 posts then has ~540 of its posts read instead
 * of all ~2,900. A window with fewer matches goes straight to all older posts (a rare word's wider
 * window would hold too few as well). Any windows give the same answer.
 */
export const SEARCH_WINDOW_GROWTH = 10;

/**
 * Where each database's windows (a window and the wider one) started when last read. Any starts give
 * the same answers (the windows are still the newest posts, only more or fewer of them), so they are
 * read again once a minute at most.
 */
interface WindowStarts {
  /** Where the window and the wider one start (timestamps as text), null when there are fewer posts. */
  start: string | null;
  widerStart: string | null;
  /** The search index's day codes covering each window's days (`search_era_range`, int[] as text). */
  codes: string | null;
  widerCodes: string | null;
}
const windowStarts = new WeakMap<Db, Map<number, WindowStarts & { readAt: number }>>();
const WINDOW_START_MAX_AGE_MS = 60_000;

/**
 * `query` with each run of exclusion signs before a word ("---x", "- - x") as one: websearch_to_tsquery
 * nests a NOT per sign, and 33 of them overflow its parser's stack ("tsquery stack too small"). One
 * sign means the same; signs inside a word ("e-mail") stay.
 */
function withOneNegation(query: string): string {
  return query.replace(/(^|\s)[-\s]*-/g, "$1-");
}

/**
 * Published posts matching `query` (websearch syntax: words, "phrases", -exclusions, or), best first
 * by ts_rank_cd over the stored weighted vector (title A, excerpt B, content C), newest first on a
 * tie, among the newest SEARCH_CANDIDATES matches. `query` has passed parseSearchQuery; a page past the
 * last throws NotFoundError (the one pagination rule). Snippets are made for the page's ten posts only,
 * here (./snippet) rather than by ts_headline, which costs PGlite a third of a search's CPU.
 * `window` is SEARCH_WINDOW but in tests, which compare it with other windows and none (null).
 */
export async function searchPosts(db: Db, query: string, page: number, window: number | null = SEARCH_WINDOW): Promise<SearchResults> {
  const offset = pageOffset(page, RESULTS_PER_PAGE);
  const tsquery = sql`websearch_to_tsquery('english', ${withOneNegation(query)})`;
  return db.transaction(async (tx) => {
    // The matches come from the GIN index as a bitmap: it answers `@@` without reading the vectors
    // (phrases still read the vectors of the posts holding all their words), and the same index holds
    // each post's publication day as codes (`search_era`, drizzle/0025_18-era-sql.sql): a window's
    // few codes ANDed in the index scan let it skip through a common word's long posting list to the
    // window's posts (at 100,000 posts, ~800 entries read instead of 40,854). Left to itself the
    // planner walks an index (or the table) testing `@@` row by row, reading each row's out-of-line
    // vector (~25 µs), which it costs as one cheap operator: at 100,000 posts a common word then took
    // ~120 ms and a phrase up to 2 s. Hence no plain index or table scan for the next queries, and
    // each row fetched from the table costed as the vector read it may be, so the plan fetching the
    // fewest rows wins; those costs would set off JIT compilation and parallel workers, which cost
    // more than a search: off.
    // The same statement reads where the windows start (when not known from an earlier search), the
    // window-th newest published post and the (window × SEARCH_WINDOW_GROWTH)-th, from the
    // published_at index: it was planned before the settings apply. Null when there are fewer
    // published posts (or the others are undated, listed last): then all posts are the window, or
    // there is no wider one. With them, the day codes covering each window: computing them costs
    // ~1 ms (a SQL function planned at each call), so they are computed with the starts, not in
    // every search.
    // It also reads the query as PostgreSQL parsed it, for the word pairs its phrases need.
    const known = window === null ? undefined : windowStarts.get(db)?.get(window);
    const rereadWindow = window !== null && !(known && Date.now() - known.readAt < WINDOW_START_MAX_AGE_MS) ? window : null;
    const startOf = (size: number) =>
      tx
        .select({ publishedAt: blogPosts.publishedAt })
        .from(blogPosts)
        .where(eq(blogPosts.published, true))
        .orderBy(newestPublishedFirst())
        .offset(size - 1)
        .limit(1);
    const reread = (column: SQL) => (rereadWindow === null ? sql<null>`null` : sql<string | null>`${column}::text`);
    const [first] = await tx
      .select({
        settings: sql`concat(set_config('enable_seqscan', 'off', true), set_config('enable_indexscan', 'off', true), set_config('cpu_tuple_cost', '10', true), set_config('jit', 'off', true), set_config('max_parallel_workers_per_gather', '0', true))`,
        // As text, passed back as they are: the timestamps make no round trip through a JavaScript Date.
        start: reread(sql`starts.start`),
        widerStart: reread(sql`starts.wider_start`),
        codes: reread(sql`search_era_range(starts.start, 'infinity')`),
        widerCodes: reread(sql`search_era_range(starts.wider_start, starts.start)`),
        parsed: sql<string>`${tsquery}::text`,
      })
      .from(
        rereadWindow === null
          ? ONE_ROW
          : sql`(select (${startOf(rereadWindow)}) as start, (${startOf(rereadWindow * SEARCH_WINDOW_GROWTH)}) as wider_start) as starts`,
      );
    const read: WindowStarts = {
      start: first?.start ?? null,
      widerStart: first?.widerStart ?? null,
      codes: first?.codes ?? null,
      widerCodes: first?.widerCodes ?? null,
    };
    const windows = rereadWindow === null ? known : read;
    if (rereadWindow !== null) {
      const starts = windowStarts.get(db) ?? new Map<number, WindowStarts & { readAt: number }>();
      windowStarts.set(db, starts.set(rereadWindow, { ...read, readAt: Date.now() }));
    }
    // A phrase is first narrowed to the posts holding its words and its word pairs, two exact GIN
    // bitmaps (drizzle/0022_18-phrase-pairs.sql), and only those posts have their vector read to
    // check the words' positions: `ts_match_vq` (`@@` spelled as a function) takes no index, so no
    // bitmap asks for a recheck, which would compute every candidate's pairs again (~0.5 ms each).
    const { pairs, lexemes } = requiredPairs(first?.parsed ?? "");
    const matches =
      pairs.length > 0
        ? and(
            sql`${blogPosts.searchVector} @@ ${lexemes}::tsquery`,
            sql`search_pair_codes(${blogPosts.searchVector}) @> array[${sql.join(
              pairs.map((pair) => sql`search_pair_code(${pair})`),
              sql`, `,
            )}]`,
            sql`ts_match_vq(${blogPosts.searchVector}, ${tsquery})`,
          )
        : sql`${blogPosts.searchVector} @@ ${tsquery}`;
    // A window needs its start and its codes (without them all posts are searched: the same answer).
    const windowAt = (at: string | null | undefined, codes: string | null | undefined) =>
      at && codes ? { from: sql`${at}::timestamptz`, codes } : undefined;
    const newestWindow = windowAt(windows?.start, windows?.codes);
    const widerWindow = newestWindow && windowAt(windows?.widerStart, windows?.widerCodes);
    const start = newestWindow?.from;
    const widerStart = widerWindow?.from;
    // `published`, and a window's exact start, in forms no btree index serves: the window's days come
    // from the search index itself (its codes tile them; the start's day may hold older posts, which
    // the exact start leaves out).
    const windowFrom = ({ from, codes }: { from: SQL; codes: string }) =>
      and(sql`search_era(${blogPosts.publishedAt}) && ${codes}::integer[]`, sql`coalesce(${blogPosts.publishedAt} >= ${from}, false)`);
    const newest = (where: SQL) =>
      tx
        .select({
          id: blogPosts.id,
          publishedAt: blogPosts.publishedAt,
          slug: blogPosts.slug,
          category: blogPosts.category,
          title: blogPosts.title,
          excerpt: blogPosts.excerpt,
          content: blogPosts.content,
          createdAt: blogPosts.createdAt,
          searchVector: blogPosts.searchVector,
        })
        .from(blogPosts)
        .where(and(matches, sql`coalesce(${blogPosts.published}, false)`, where))
        .orderBy(newestPublishedFirst())
        .limit(SEARCH_CANDIDATES);
    const recent = tx.$with("recent").as(newest((newestWindow && windowFrom(newestWindow)) ?? sql`true`));
    // The wider window and the older posts are searched only when the windows before hold fewer than
    // SEARCH_CANDIDATES matches (one-time filters: a scan that is not needed never starts).
    const inWindow = sql`(select count(*) from ${recent})`;
    const widerRuns = sql`${inWindow} between ${SEARCH_CANDIDATES / SEARCH_WINDOW_GROWTH} and ${SEARCH_CANDIDATES - 1}`;
    const wider = tx
      .$with("wider")
      .as(
        newest(
          start && widerWindow
            ? (and(windowFrom(widerWindow), sql`coalesce(${blogPosts.publishedAt} < ${start}, false)`, widerRuns) ?? sql`false`)
            : sql`false`,
        ),
      );
    const olderThan = start && widerStart ? sql`case when ${widerRuns} then ${widerStart} else ${start} end` : start;
    const older = newest(
      olderThan
        ? sql`coalesce(${blogPosts.publishedAt} < ${olderThan}, true) and ${inWindow} + (select count(*) from ${wider}) < ${SEARCH_CANDIDATES}`
        : sql`false`,
    );
    const candidates = unionAll(tx.select().from(recent), tx.select().from(wider), older)
      .orderBy(sql`${sql.identifier("published_at")} desc nulls last, ${sql.identifier("id")} desc nulls last`)
      .limit(SEARCH_CANDIDATES)
      .as("candidates");
    // One pass: the page's ten and the number of candidates (a window count) come from the same query.
    // The candidates carry the columns the page shows (long texts and vectors as pointers to their
    // out-of-line values, read only for the ranks and the ten snippets), so no post is looked up again.
    const ranked = tx
      .select({
        id: candidates.id,
        publishedAt: candidates.publishedAt,
        slug: candidates.slug,
        category: candidates.category,
        title: candidates.title,
        excerpt: candidates.excerpt,
        content: candidates.content,
        createdAt: candidates.createdAt,
        rank: sql<number>`ts_rank_cd(${candidates.searchVector}, ${tsquery})`.as("rank"),
        total: sql<number>`count(*) over ()`.mapWith(Number).as("total"),
      })
      .from(candidates)
      .orderBy(desc(sql`rank`), sql`${candidates.publishedAt} desc nulls last`, desc(candidates.id))
      .limit(RESULTS_PER_PAGE)
      .offset(offset)
      .as("ranked");
    const rows = await tx
      .with(recent, wider)
      .select({
        id: ranked.id,
        slug: ranked.slug,
        category: ranked.category,
        title: ranked.title,
        excerpt: ranked.excerpt,
        content: ranked.content,
        createdAt: ranked.createdAt,
        total: ranked.total,
      })
      .from(ranked)
      .orderBy(desc(ranked.rank), sql`${ranked.publishedAt} desc nulls last`, desc(ranked.id));
    // A page past the last has no rows to carry the count: count once more to answer it (404 or empty).
    const total = rows[0]?.total ?? (page === 1 ? 0 : ((await tx.with(recent, wider).select({ n: count() }).from(candidates))[0]?.n ?? 0));
    const pages = pageWindow(total, page, RESULTS_PER_PAGE);
    const wanted = searchTerms(first?.parsed ?? "", pairs);
    const stems: LexemeCache = new Map();
    const hits = rows.map(({ id, slug, category, title, excerpt, content, createdAt }) => ({
      id,
      slug,
      category,
      title,
      titleHighlight: highlightAll(title, wanted, stems),
      // ts_headline was given concat_ws(' ', excerpt, content): a missing excerpt adds no space.
      snippet: snippetOf(excerpt === null ? content : `${excerpt} ${content}`, wanted, stems),
      createdAt,
    }));
    return { hits, total, page: pages.page, pageCount: pages.pageCount };
  });
}
