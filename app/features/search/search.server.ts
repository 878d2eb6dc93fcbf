import { and, count, desc, eq, sql } from "drizzle-orm";
import type { Category } from "~/lib/categories";
import type { Db } from "~/server/db/client.server";
import { blogPosts } from "~/server/db/schema.server";
import { pageWindow } from "~/server/pagination.server";
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
 * Published posts matching `query` (websearch syntax: words, "phrases", -exclusions, or), best first
 * by ts_rank_cd over the stored weighted vector (title A, excerpt B, content C), newest first on a
 * tie. `query` has passed parseSearchQuery; a page past the last throws NotFoundError (the one
 * pagination rule). Snippets are computed for the page's ten posts only.
 */
export async function searchPosts(db: Db, query: string, page: number): Promise<SearchResults> {
  const tsquery = sql`websearch_to_tsquery('english', ${query})`;
  const where = and(eq(blogPosts.published, true), sql`${blogPosts.searchVector} @@ ${tsquery}`);
  const [totalRow] = await db.select({ n: count() }).from(blogPosts).where(where);
  const total = totalRow?.n ?? 0;
  const window = pageWindow(total, page, RESULTS_PER_PAGE);
  if (total === 0) return { hits: [], total, page: window.page, pageCount: window.pageCount };

  const ranked = db
    .select({
      id: blogPosts.id,
      rank: sql<number>`ts_rank_cd(${blogPosts.searchVector}, ${tsquery})`.as("rank"),
    })
    .from(blogPosts)
    .where(where)
    .orderBy(desc(sql`rank`), desc(blogPosts.createdAt), desc(blogPosts.id))
    .limit(window.limit)
    .offset(window.offset)
    .as("ranked");
  const hits = await db
    .select({
      id: blogPosts.id,
      slug: blogPosts.slug,
      category: blogPosts.category,
      title: blogPosts.title,
      titleHighlight: sql<string>`ts_headline('english', ${blogPosts.title}, ${tsquery}, ${TITLE_OPTIONS})`,
      snippet: sql<string>`ts_headline('english', concat_ws(' ', ${blogPosts.excerpt}, ${blogPosts.content}), ${tsquery}, ${HEADLINE_OPTIONS})`,
      createdAt: blogPosts.createdAt,
    })
    .from(ranked)
    .innerJoin(blogPosts, eq(blogPosts.id, ranked.id))
    .orderBy(desc(ranked.rank), desc(blogPosts.createdAt), desc(blogPosts.id));
  return { hits, total, page: window.page, pageCount: window.pageCount };
}
