/** Marks the search field the `/` key focuses (the top bar's). */
export const SEARCH_SHORTCUT_ATTRIBUTE = "data-search-shortcut";
/** Marks a control that opens that field while the bar shows only its icon. */
export const SEARCH_OPENER_ATTRIBUTE = "data-search-opener";

const shown = (selector: string) => [...document.querySelectorAll<HTMLElement>(selector)].find((el) => el.getClientRects().length > 0);

function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || target.closest("input, textarea, select, [contenteditable], [role='textbox']") !== null;
}

/**
 * `/` focuses the visible search field, unless the reader is typing somewhere else (every page: app/enhance);
 * when the bar shows only the field's icon, `/` opens the field through it.
 */
export function enhanceSearchShortcut(): void {
  document.addEventListener("keydown", (event) => {
    if (event.key !== "/" || event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return;
    if (isTypingTarget(event.target)) return;
    const target = shown(`[${SEARCH_SHORTCUT_ATTRIBUTE}]`) ?? shown(`[${SEARCH_OPENER_ATTRIBUTE}]`);
    if (!target) return;
    event.preventDefault();
    if (!(target instanceof HTMLInputElement)) {
      target.click();
      return;
    }
    target.focus();
    target.select();
  });
}
