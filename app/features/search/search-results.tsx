import { Link } from "react-router";
import { Badge } from "~/components/ui/badge";
import { CATEGORY_LINKS } from "~/features/layout/site-links";
import type { HighlightSegment } from "./highlight";
import type { SearchPageView } from "./search-page.server";

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

/** No hits (or no query yet): says so and offers the categories. */
export function NoResults({ shown }: { shown: string }) {
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

/** The hits, best first: category, date, the title and a snippet with the query's words marked. */
export function SearchHits({ hits }: { hits: SearchPageView["hits"] }) {
  return (
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
  );
}
