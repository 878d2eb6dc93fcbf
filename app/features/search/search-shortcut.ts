/** Marks the search field the `/` key focuses (the top bar's). */
export const SEARCH_SHORTCUT_ATTRIBUTE = "data-search-shortcut";

function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || target.closest("input, textarea, select, [contenteditable], [role='textbox']") !== null;
}

/** `/` focuses the visible search field, unless the reader is typing somewhere else (every page: app/enhance). */
export function enhanceSearchShortcut(): void {
  document.addEventListener("keydown", (event) => {
    if (event.key !== "/" || event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return;
    if (isTypingTarget(event.target)) return;
    const field = [...document.querySelectorAll<HTMLInputElement>(`[${SEARCH_SHORTCUT_ATTRIBUTE}]`)].find(
      (el) => el.getClientRects().length > 0,
    );
    if (!field) return;
    event.preventDefault();
    field.focus();
    field.select();
  });
}
