import { Search } from "lucide-react";
import { useEffect } from "react";
import { Form, useLocation, useSearchParams } from "react-router";
import { Input } from "~/components/ui/input";
import { cn } from "~/lib/utils";
import { MAX_QUERY_LENGTH } from "./search-limits";

export const SEARCH_PATH = "/search";

/** The query of the page being shown, so a search field keeps what the reader searched for. */
function useCurrentQuery(): string {
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  return pathname === SEARCH_PATH ? (params.get("q") ?? "") : "";
}

/**
 * A GET form to /search: it works before (or without) JavaScript, and with it React Router navigates
 * without a full reload. `shortcut` marks the field the `/` key focuses.
 */
export function SearchForm({
  label,
  className,
  shortcut = false,
  onSearch,
}: {
  label: string;
  className?: string;
  shortcut?: boolean;
  onSearch?: () => void;
}) {
  const query = useCurrentQuery();
  return (
    <Form method="get" action={SEARCH_PATH} role="search" className={cn("relative", className)} onSubmit={onSearch}>
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
        {...(shortcut ? { "data-search-shortcut": "", "aria-keyshortcuts": "/" } : {})}
      />
    </Form>
  );
}

function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || target.closest("input, textarea, select, [contenteditable], [role='textbox']") !== null;
}

/** `/` focuses the visible search field, unless the reader is typing somewhere else. */
export function useSearchShortcut() {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "/" || event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return;
      if (isTypingTarget(event.target)) return;
      const field = [...document.querySelectorAll<HTMLInputElement>("[data-search-shortcut]")].find((el) => el.getClientRects().length > 0);
      if (!field) return;
      event.preventDefault();
      field.focus();
      field.select();
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, []);
}
