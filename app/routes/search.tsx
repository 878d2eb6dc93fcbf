import { Pager } from "~/components/pager";
import { SEARCH_PATH, SearchForm } from "~/features/search/search-form";
import { seoContext, seoMeta } from "~/lib/seo";
import { getDb } from "~/server/db/client.server";
import { withPageFailures } from "~/server/failure-reply.server";
import { pageParam } from "~/server/pagination.server";
import { searchPageView } from "~/features/search/search-page.server";
import { NoResults, SearchHits } from "~/features/search/search-results";
import type { Route } from "./+types/search";
import { STATIC_PAGE } from "~/lib/hydration";

/** No React for anonymous visitors (lib/hydration.ts). */
export const handle = STATIC_PAGE;

export async function loader({ request }: Route.LoaderArgs) {
  const raw = new URL(request.url).searchParams.get("q");
  return withPageFailures(() => searchPageView(getDb(), raw, pageParam(request)));
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

function pageHref(query: string, page: number): string {
  const params = new URLSearchParams({ q: query });
  if (page > 1) params.set("page", String(page));
  return `${SEARCH_PATH}?${params.toString()}`;
}

export default function SearchPage({ loaderData }: Route.ComponentProps) {
  const { shown, query, hits, page, pageCount } = loaderData;
  return (
    <section className="mx-auto max-w-3xl px-4 py-16">
      <h1 className="text-4xl font-bold tracking-tight">Search</h1>
      <SearchForm label="Search posts" className="mt-6" />
      <div className="mt-10" aria-live="polite">
        {hits.length === 0 ? <NoResults shown={shown} /> : <SearchHits hits={hits} />}
      </div>
      <Pager
        label="Pagination"
        page={page}
        pageCount={pageCount}
        href={(n) => pageHref(query, n)}
        prevLabel="Previous results"
        nextLabel="More results"
        variant="public"
        statusAsOneText
      />
    </section>
  );
}
