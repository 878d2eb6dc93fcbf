/**
 * The top bar gives way to the site name (every page: app/enhance). The name is never cut; when the
 * bar's parts do not fit beside it on one line, first the search field becomes its icon, then the
 * links move one by one (in the order the row names, menus.ts navFitOrder) into the "More" menu. Measured in the page, so it follows
 * the real width of the name in the reader's font; with the default name or one of a dozen
 * characters every link and the field stay in the bar at 1280 px.
 */

/** The bar's row (site-header.tsx); its last child must end inside it. Its value: the items' keys in the order they give way. */
export const NAV_FIT_ROW = "data-nav-fit";
/** A link (or menu) of the bar that can move into "More": its key. */
export const NAV_FIT_ITEM = "data-nav-item";
/** An entry of the "More" menu: the key of the bar item it stands in for. */
export const NAV_FIT_MORE_FOR = "data-nav-more-for";
/** The "More" menu's list item, shown while any link waits in it. */
export const NAV_FIT_MORE = "data-nav-more";
/** The top bar's search field and the icon that stands in for it. */
export const NAV_FIT_SEARCH_FIELD = "data-nav-search-field";
export const NAV_FIT_SEARCH_ICON = "data-nav-search-icon";

const all = <T extends Element = HTMLElement>(root: ParentNode, attribute: string) => [
  ...root.querySelectorAll<T & HTMLElement>(`[${attribute}]`),
];

/** Whether the row's last part ends inside the row's content box (nothing pushed past its edge). */
function fits(row: HTMLElement): boolean {
  const last = [...row.children].findLast((child) => child.getClientRects().length > 0);
  if (!last) return true;
  const padding = Number.parseFloat(getComputedStyle(row).paddingRight) || 0;
  return last.getBoundingClientRect().right <= row.getBoundingClientRect().right - padding + 0.5;
}

function setMoved(row: HTMLElement, key: string, moved: boolean) {
  for (const item of all(row, NAV_FIT_ITEM)) if (item.getAttribute(NAV_FIT_ITEM) === key) item.hidden = moved;
  for (const entry of all(row, NAV_FIT_MORE_FOR)) if (entry.getAttribute(NAV_FIT_MORE_FOR) === key) entry.hidden = !moved;
}

function setSearchCollapsed(row: HTMLElement, collapsed: boolean) {
  for (const field of all(row, NAV_FIT_SEARCH_FIELD)) {
    field.hidden = collapsed;
    delete field.dataset.open;
  }
  for (const icon of all(row, NAV_FIT_SEARCH_ICON)) icon.hidden = !collapsed;
}

/** Lays the row out again: everything in the bar, then gives way step by step until it fits. */
export function fitRow(row: HTMLElement): void {
  const keys = all(row, NAV_FIT_ITEM).map((item) => item.getAttribute(NAV_FIT_ITEM) ?? "");
  const more = all(row, NAV_FIT_MORE);
  for (const key of keys) setMoved(row, key, false);
  for (const element of more) element.hidden = true;
  setSearchCollapsed(row, false);
  // Below the lg breakpoint the menu button holds the links: nothing to fit.
  const nav = row.querySelector("nav");
  if (!nav || nav.getClientRects().length === 0 || fits(row)) return;
  setSearchCollapsed(row, true);
  if (fits(row)) return;
  for (const element of more) element.hidden = false;
  for (const key of (row.getAttribute(NAV_FIT_ROW) ?? "").split(" ")) {
    if (!keys.includes(key)) continue;
    setMoved(row, key, true);
    if (fits(row)) return;
  }
}

/** The field opened from its icon: under the bar, focused. */
function openSearch(icon: HTMLElement) {
  const field = icon.closest(`[${NAV_FIT_ROW}]`)?.querySelector<HTMLElement>(`[${NAV_FIT_SEARCH_FIELD}]`);
  if (!field) return;
  field.hidden = false;
  field.dataset.open = "";
  const input = field.querySelector("input");
  input?.focus();
  input?.select();
}

/** The opened field closes with Escape (the focus goes back to its icon) or when the focus leaves it. */
function closeSearch(field: HTMLElement, focusIcon: boolean) {
  field.hidden = true;
  delete field.dataset.open;
  if (focusIcon) field.closest(`[${NAV_FIT_ROW}]`)?.querySelector<HTMLElement>(`[${NAV_FIT_SEARCH_ICON}]`)?.focus();
}

const openFieldOf = (target: EventTarget | null) =>
  target instanceof Element ? target.closest<HTMLElement>(`[${NAV_FIT_SEARCH_FIELD}][data-open]`) : null;

export function enhanceNavFit(): void {
  document.addEventListener("click", (event) => {
    const icon = event.target instanceof Element ? event.target.closest<HTMLElement>(`[${NAV_FIT_SEARCH_ICON}]`) : null;
    if (!icon || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    openSearch(icon);
  });
  document.addEventListener("keydown", (event) => {
    const field = openFieldOf(event.target);
    if (field && event.key === "Escape") closeSearch(field, true);
  });
  document.addEventListener("focusout", (event) => {
    const field = openFieldOf(event.target);
    if (field && !(event.relatedTarget instanceof Node && field.contains(event.relatedTarget))) closeSearch(field, false);
  });
  let scheduled = false;
  const fitAll = () => {
    scheduled = false;
    for (const row of all(document, NAV_FIT_ROW)) fitRow(row);
  };
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    requestAnimationFrame(fitAll);
  };
  fitAll();
  window.addEventListener("resize", schedule);
  void document.fonts.ready.then(schedule);
  // React may redraw the bar (signing in, a new name): its new parts are laid out again. Attribute
  // changes (the ones made here) are not watched.
  const header = document.querySelector("header");
  if (header) new MutationObserver(schedule).observe(header, { childList: true, subtree: true, characterData: true });
}
