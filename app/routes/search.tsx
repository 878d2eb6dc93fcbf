import { Link } from "react-router";
import { Badge } from "~/components/ui/badge";
import { shortDate } from "~/features/posts/read/dates";
import { highlightSegments, type HighlightSegment } from "~/features/search/highlight";
import { SEARCH_PATH, SearchForm } from "~/features/search/search-form";
import { parseSearchQuery } from "~/features/search/search-schema";
import { searchPosts } from "~/features/search/search.server";
import { CATEGORY_LINKS } from "~/features/layout/site-links";
import { postPath } from "~/lib/categories";
import { seoContext, seoMeta } from "~/lib/seo";
import { getDb } from "~/server/db/client.server";
import { withRouteErrors } from "~/server/errors.server";
import { pageParam } from "~/server/pagination.server";
import type { Route } from "./+types/search";
import { STATIC_PAGE } from "~/lib/hydration";

/** Issue 14: no React for anonymous visitors (lib/hydration.ts). */
export const handle = STATIC_PAGE;

export async function loader({ request }: Route.LoaderArgs) {
  const raw = new URL(request.url).searchParams.get("q");
  const query = parseSearchQuery(raw);
  // What the reader typed, shown back in the empty state (capped: a 1,000-character query is not echoed whole).
  const shown = (raw ?? "").trim().slice(0, 100);
  if (!query) return { shown, query: "", hits: [], page: 1, pageCount: 1 };
  const results = await withRouteErrors(() => searchPosts(getDb(), query, pageParam(request)));
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

export function meta({ data: d, matches }: Route.MetaArgs) {
  const title = d?.query ? `Search: ${d.query}` : "Search";
  // Result pages are endless combinations of words: useful to readers, not to search engines.
  return seoMeta(seoContext(matches), {
    title,
    description: "Search the 7 Fs Framework blog.",
    path: SEARCH_PATH,
    noindex: true,
  });
}

function Highlighted({ segments }: { segments: HighlightSegment[] }) {
  return segments.map((segment, i) =>
    segment.mark ? (
      <mark key={i} className="rounded-sm bg-mark px-0.5 text-mark-foreground">
        {segment.text}
      </mark>
    ) : (
      segment.text
    ),
  );
}

function pageHref(query: string, page: number): string {
  const params = new URLSearchParams({ q: query });
  if (page > 1) params.set("page", String(page));
  return `${SEARCH_PATH}?${params.toString()}`;
}

function NoResults({ shown }: { shown: string }) {
  return (
    <div className="rounded-lg border bg-card px-4 py-12 text-center">
      <h2 className="text-2xl font-semibold break-words">{shown ? `No results for "${shown}"` : "Type a few words to search the posts"}</h2>
      <p className="mt-2 text-muted-foreground">Try other words, or browse the categories:</p>
      <ul className="mt-4 flex flex-wrap justify-center gap-x-4 gap-y-2" aria-label="Categories">
        {CATEGORY_LINKS.map((category) => (
          <li key={category.to}>
            <Link to={category.to} className="text-primary underline hover:no-underline">
              {category.label}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}

export default function SearchPage({ loaderData }: Route.ComponentProps) {
  const { shown, query, hits, page, pageCount } = loaderData;
  return (
    <section className="mx-auto max-w-3xl px-4 py-16">
      <h1 className="text-4xl font-bold tracking-tight">Search</h1>
      <SearchForm label="Search posts" className="mt-6" />
      <div className="mt-10" aria-live="polite">
        {hits.length === 0 ? (
          <NoResults shown={shown} />
        ) : (
          <ol className="flex flex-col gap-8" aria-label="Search results">
            {hits.map((hit) => (
              <li key={hit.path}>
                <article>
                  <p className="flex items-center gap-2 text-sm text-muted-foreground">
                    <Badge variant="secondary">{hit.category}</Badge>
                    <time dateTime={hit.createdAt}>{hit.date}</time>
                  </p>
                  <h2 className="mt-2 text-xl font-semibold break-words">
                    <Link to={hit.path} className="hover:text-primary hover:underline">
                      <Highlighted segments={hit.title} />
                    </Link>
                  </h2>
                  <p className="mt-2 break-words text-muted-foreground" data-testid="search-snippet">
                    <Highlighted segments={hit.snippet} />
                  </p>
                </article>
              </li>
            ))}
          </ol>
        )}
      </div>
      {pageCount > 1 ? (
        <nav aria-label="Pagination" className="mt-10 flex items-center justify-center gap-4">
          {page > 1 ? (
            <Link rel="prev" to={pageHref(query, page - 1)} className="text-primary underline">
              Previous results
            </Link>
          ) : null}
          <span className="text-sm text-muted-foreground">{`Page ${page} of ${pageCount}`}</span>
          {page < pageCount ? (
            <Link rel="next" to={pageHref(query, page + 1)} className="text-primary underline">
              More results
            </Link>
          ) : null}
        </nav>
      ) : null}
    </section>
  );
}
