/**
 * The behaviour of sheets (sheet.tsx draws them: a modal <dialog> and its trigger), for every page,
 * with React or without it (anonymous public pages load no React). The browser's modal dialog moves focus in and keeps it there,
 * makes the page behind inert and closes on Escape; this opens it from its trigger, closes it from
 * its Close button, the backdrop, a link or a search inside it, and returns focus to the trigger.
 */
import { elementOf } from "~/lib/dom";

/** Marks a sheet's trigger (aria-controls names the <dialog>) and its Close button. */
export const SHEET_TRIGGER_ATTRIBUTE = "data-sheet-trigger";
export const SHEET_CLOSE_ATTRIBUTE = "data-sheet-close";
const SHEET = "dialog[data-sheet]";

function triggerOf(dialog: Element): HTMLElement | null {
  return document.querySelector<HTMLElement>(`[${SHEET_TRIGGER_ATTRIBUTE}][aria-controls="${CSS.escape(dialog.id)}"]`);
}

function closeSheetOf(target: Element | null) {
  const dialog = target?.closest(SHEET);
  if (dialog instanceof HTMLDialogElement && dialog.open) dialog.close();
}

export function enhanceSheets(): void {
  document.addEventListener("click", (event) => {
    const target = elementOf(event.target);
    const trigger = target?.closest<HTMLElement>(`[${SHEET_TRIGGER_ATTRIBUTE}]`);
    if (trigger) {
      const dialog = document.getElementById(trigger.getAttribute("aria-controls") ?? "");
      if (dialog instanceof HTMLDialogElement && !dialog.open) {
        dialog.showModal();
        trigger.setAttribute("aria-expanded", "true");
      }
      return;
    }
    // A click on the backdrop reaches the <dialog> itself.
    if (target?.matches(SHEET) || target?.closest(`[${SHEET_CLOSE_ATTRIBUTE}], a[href]`)) closeSheetOf(target);
  });
  // A search from the sheet shows its results behind it (the form still submits: it stays in the page).
  document.addEventListener("submit", (event) => closeSheetOf(elementOf(event.target)));
  // `close` does not bubble: caught on its way down. Escape closes the dialog without our help.
  document.addEventListener(
    "close",
    (event) => {
      const dialog = event.target;
      if (!(dialog instanceof HTMLDialogElement) || !dialog.matches(SHEET)) return;
      const trigger = triggerOf(dialog);
      trigger?.setAttribute("aria-expanded", "false");
      trigger?.focus();
    },
    true,
  );
}
