import { Search } from "lucide-react";
import { Form, useLocation, useSearchParams } from "react-router";
import { Input } from "~/components/ui/input";
import { cn } from "~/lib/utils";
import { MAX_QUERY_LENGTH } from "./search-limits";
import { SEARCH_SHORTCUT_ATTRIBUTE } from "./search-shortcut";

export const SEARCH_PATH = "/search";
/** For the control that opens the top bar's field while the bar shows only its icon. */
export { SEARCH_OPENER_ATTRIBUTE } from "./search-shortcut";

/** The query of the page being shown, so a search field keeps what the reader searched for. */
function useCurrentQuery(): string {
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  return pathname === SEARCH_PATH ? (params.get("q") ?? "") : "";
}

/**
 * A GET form to /search: it works before (or without) JavaScript, and with it React Router navigates
 * without a full reload. `shortcut` marks the field the `/` key focuses (search-shortcut.ts).
 */
export function SearchForm({ label, className, shortcut = false }: { label: string; className?: string; shortcut?: boolean }) {
  const query = useCurrentQuery();
  return (
    <Form method="get" action={SEARCH_PATH} role="search" className={cn("relative", className)}>
      <Search aria-hidden className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground" />
      <Input
        key={query}
        type="search"
        name="q"
        defaultValue={query}
        aria-label={label}
        placeholder="Search posts"
        // Longer queries get the empty state anyway; the cap only saves typing into the void.
        maxLength={MAX_QUERY_LENGTH}
        autoComplete="off"
        enterKeyHint="search"
        className="pl-8"
        {...(shortcut ? { [SEARCH_SHORTCUT_ATTRIBUTE]: "", "aria-keyshortcuts": "/" } : {})}
      />
    </Form>
  );
}
