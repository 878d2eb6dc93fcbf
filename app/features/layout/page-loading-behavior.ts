import { elementOf } from "~/lib/dom";

/** Marks the top bar's page-loading spinner (site-header.tsx), hidden while nothing loads. */
export const PAGE_LOADING_ATTRIBUTE = "data-page-loading";

function showSpinner(loading: boolean) {
  for (const element of document.querySelectorAll<HTMLElement>(`[${PAGE_LOADING_ATTRIBUTE}]`)) element.hidden = !loading;
}

/** A click that leaves for another page of this site in this tab. */
function leavesPage(event: MouseEvent): boolean {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return false;
  const link = elementOf(event.target)?.closest("a[href]");
  if (!(link instanceof HTMLAnchorElement) || (link.target && link.target !== "_self") || link.hasAttribute("download")) return false;
  const url = new URL(link.href);
  if (url.origin !== window.location.origin) return false;
  // A link within this page (the table of contents) loads nothing.
  return !(url.pathname === window.location.pathname && url.search === window.location.search && url.hash);
}

/**
 * SPEC §2 "A spinner shows while loading", on pages without React (app/enhance): a link to another
 * page of the site shows the top bar's spinner until the browser shows that page. (With React the
 * router's navigation state shows it.)
 */
export function enhancePageLoading(): void {
  document.addEventListener("click", (event) => {
    if (leavesPage(event)) showSpinner(true);
  });
  // Back to this page from the browser's back/forward cache: nothing is loading.
  window.addEventListener("pageshow", () => showSpinner(false));
}
