import { shortDate } from "~/lib/dates";
import { postPath } from "~/lib/categories";
import type { Db } from "~/server/db/client.server";
import { highlightSegments } from "./highlight";
import { parseSearchQuery } from "./search-schema";
import { searchPosts } from "./search.server";

/** The search page for the query as typed (`raw`, from ?q=): the hits of one page, highlighted. */
export async function searchPageView(db: Db, raw: string | null, page: number) {
  const query = parseSearchQuery(raw);
  // What the reader typed, shown back in the empty state (capped: a 1,000-character query is not echoed whole).
  const shown = (raw ?? "").trim().slice(0, 100);
  if (!query) return { shown, query: "", hits: [], page: 1, pageCount: 1 };
  const results = await searchPosts(db, query, page);
  return {
    shown,
    query,
    page: results.page,
    pageCount: results.pageCount,
    hits: results.hits.map((hit) => ({
      path: postPath(hit.category, hit.slug),
      category: hit.category,
      title: highlightSegments(hit.titleHighlight),
      snippet: highlightSegments(hit.snippet),
      date: shortDate(hit.createdAt),
      createdAt: hit.createdAt.toISOString(),
    })),
  };
}

export type SearchPageView = Awaited<ReturnType<typeof searchPageView>>;
