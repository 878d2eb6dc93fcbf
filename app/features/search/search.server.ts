import { and, count, desc, eq, sql } from "drizzle-orm";
import type { Category } from "~/lib/categories";
import type { Db } from "~/server/db/client.server";
import { blogPosts } from "~/server/db/schema.server";
import { pageOffset, pageWindow } from "~/server/pagination.server";
import { newestPublishedFirst } from "~/features/posts/posts.server";
import { HIGHLIGHT_START, HIGHLIGHT_STOP } from "./highlight";
import { RESULTS_PER_PAGE } from "./search-schema";

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

const HEADLINE_OPTIONS = `StartSel=${HIGHLIGHT_START}, StopSel=${HIGHLIGHT_STOP}, MaxWords=35, MinWords=15, MaxFragments=2, FragmentDelimiter=" … "`;
const TITLE_OPTIONS = `StartSel=${HIGHLIGHT_START}, StopSel=${HIGHLIGHT_STOP}, HighlightAll=true`;

/**
 * At most this many matches are ranked and paged: the newest ones. Ranking reads each candidate's
 * stored vector (out of line, compressed: the costly part), so a word found in most posts ranks this
 * many posts, not tens of thousands.
 */
export const SEARCH_CANDIDATES = 200;

/**
 * Published posts matching `query` (websearch syntax: words, "phrases", -exclusions, or), best first
 * by ts_rank_cd over the stored weighted vector (title A, excerpt B, content C), newest first on a
 * tie, among the newest SEARCH_CANDIDATES matches. `query` has passed parseSearchQuery; a page past the
 * last throws NotFoundError (the one pagination rule). Snippets are computed for the page's ten posts only.
 */
export async function searchPosts(db: Db, query: string, page: number): Promise<SearchResults> {
  const offset = pageOffset(page, RESULTS_PER_PAGE);
  const tsquery = sql`websearch_to_tsquery('english', ${query})`;
  return db.transaction(async (tx) => {
    // The matches come from the GIN index as a bitmap: it answers `@@` without reading the vectors
    // (phrases still read the vectors of the posts holding all their words). Left to itself the planner
    // walks the published_at index (or the table) testing `@@` row by row, reading each row's
    // out-of-line vector, which it costs as cheap: at 100,000 posts a common word then took ~120 ms
    // and a phrase up to 2 s. Hence no plain index or table scan for this transaction's queries, and
    // `published` tested in a form no btree index serves (coalesce), so the GIN bitmap is the one path.
    await tx.execute(sql`select set_config('enable_seqscan', 'off', true), set_config('enable_indexscan', 'off', true)`);
    const candidates = tx
      .select({ id: blogPosts.id, publishedAt: blogPosts.publishedAt })
      .from(blogPosts)
      .where(and(sql`${blogPosts.searchVector} @@ ${tsquery}`, sql`coalesce(${blogPosts.published}, false)`))
      .orderBy(newestPublishedFirst())
      .limit(SEARCH_CANDIDATES)
      .as("candidates");
    // One pass: the page's ten and the number of candidates (a window count) come from the same query.
    const ranked = tx
      .select({
        id: candidates.id,
        rank: sql<number>`ts_rank_cd(${blogPosts.searchVector}, ${tsquery})`.as("rank"),
        publishedAt: candidates.publishedAt,
        total: sql<number>`count(*) over ()`.mapWith(Number).as("total"),
      })
      .from(candidates)
      .innerJoin(blogPosts, eq(blogPosts.id, candidates.id))
      .orderBy(desc(sql`rank`), sql`${candidates.publishedAt} desc nulls last`, desc(candidates.id))
      .limit(RESULTS_PER_PAGE)
      .offset(offset)
      .as("ranked");
    const rows = await tx
      .select({
        id: blogPosts.id,
        slug: blogPosts.slug,
        category: blogPosts.category,
        title: blogPosts.title,
        titleHighlight: sql<string>`ts_headline('english', ${blogPosts.title}, ${tsquery}, ${TITLE_OPTIONS})`,
        snippet: sql<string>`ts_headline('english', concat_ws(' ', ${blogPosts.excerpt}, ${blogPosts.content}), ${tsquery}, ${HEADLINE_OPTIONS})`,
        createdAt: blogPosts.createdAt,
        total: ranked.total,
      })
      .from(ranked)
      .innerJoin(blogPosts, eq(blogPosts.id, ranked.id))
      .orderBy(desc(ranked.rank), sql`${ranked.publishedAt} desc nulls last`, desc(blogPosts.id));
    // A page past the last has no rows to carry the count: count once more to answer it (404 or empty).
    const total = rows[0]?.total ?? (page === 1 ? 0 : ((await tx.select({ n: count() }).from(candidates))[0]?.n ?? 0));
    const window = pageWindow(total, page, RESULTS_PER_PAGE);
    const hits = rows.map(({ total: _total, ...hit }) => hit);
    return { hits, total, page: window.page, pageCount: window.pageCount };
  });
}
