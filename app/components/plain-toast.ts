/**
 * Toasts drawn with plain DOM code, for behaviours that run on pages without React (anonymous public pages), where
 * sonner (components/toaster.tsx, a React component) cannot be mounted. They look and announce like
 * the app's sonner toasts (rich colours, bottom right, 4 s, three at most, a close button, a polite
 * live region) and carry the same texts; the pages with React keep sonner for everything else.
 */

export type PlainToastKind = "success" | "error" | "info";

const DURATION_MS = 4000;
const VISIBLE_TOASTS = 3;
/** Marks a toast (tests find toasts by it, as by sonner's `data-sonner-toast`). */
export const PLAIN_TOAST_ATTRIBUTE = "data-toast";
const REGION_ATTRIBUTE = "data-toast-region";

// Sonner's rich colours, with app.css's darker light-theme texts (WCAG AA).
const COLOURS: Record<PlainToastKind, string> = {
  success:
    "border-[hsl(145,92%,87%)] bg-[hsl(143,85%,96%)] text-[hsl(140,100%,20%)] dark:border-[hsl(147,100%,12%)] dark:bg-[hsl(150,100%,6%)] dark:text-[hsl(150,86%,65%)]",
  error:
    "border-[hsl(359,100%,94%)] bg-[hsl(359,100%,97%)] text-[hsl(360,100%,36%)] dark:border-[hsl(357,89%,16%)] dark:bg-[hsl(358,76%,10%)] dark:text-[hsl(358,100%,81%)]",
  info: "border-[hsl(221,91%,93%)] bg-[hsl(208,100%,97%)] text-[hsl(210,92%,35%)] dark:border-[hsl(223,43%,17%)] dark:bg-[hsl(215,100%,6%)] dark:text-[hsl(216,87%,65%)]",
};

const CLOSE_ICON =
  '<svg xmlns="http://www.w3.org/2000/svg" width="12" height="12" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="1.5" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><path d="M18 6 6 18"/><path d="m6 6 12 12"/></svg>';

/** The live region the toasts are announced from, made with the first toast (sonner's attributes). */
function toastList(): HTMLOListElement {
  const existing = document.querySelector<HTMLOListElement>(`[${REGION_ATTRIBUTE}] ol`);
  if (existing) return existing;
  const region = document.createElement("section");
  region.setAttribute(REGION_ATTRIBUTE, "");
  region.setAttribute("aria-label", "Notifications");
  region.setAttribute("aria-live", "polite");
  region.setAttribute("aria-relevant", "additions text");
  region.setAttribute("aria-atomic", "false");
  region.tabIndex = -1;
  const list = document.createElement("ol");
  list.className =
    "fixed right-4 bottom-4 left-4 z-[999999999] m-0 flex list-none flex-col-reverse gap-3.5 p-0 sm:right-6 sm:bottom-6 sm:left-auto sm:w-[356px]";
  region.append(list);
  document.body.append(region);
  return list;
}

function line(text: string, className: string, attribute: string): HTMLDivElement {
  const element = document.createElement("div");
  element.setAttribute(attribute, "");
  element.className = className;
  element.textContent = text;
  return element;
}

/** Shows a toast with this title and description; it goes after 4 s unless pointed at or focused. */
export function showPlainToast(kind: PlainToastKind, title: string, description?: string): void {
  const list = toastList();
  const toast = document.createElement("li");
  toast.setAttribute(PLAIN_TOAST_ATTRIBUTE, "");
  toast.dataset.type = kind;
  toast.tabIndex = 0;
  toast.className = `relative flex w-full items-center gap-1.5 rounded-lg border p-4 text-[13px] shadow-[0_4px_12px_rgba(0,0,0,0.1)] ${COLOURS[kind]}`;
  const content = document.createElement("div");
  content.className = "flex flex-col gap-0.5";
  content.append(line(title, "font-medium leading-normal", "data-title"));
  if (description) content.append(line(description, "leading-snug", "data-description"));
  const close = document.createElement("button");
  close.type = "button";
  close.setAttribute("aria-label", "Close toast");
  close.className =
    "absolute -top-2 -left-2 flex size-5 items-center justify-center rounded-full border bg-background text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none";
  close.innerHTML = CLOSE_ICON;
  toast.append(content, close);

  let timer: ReturnType<typeof setTimeout> | undefined;
  const remove = () => {
    clearTimeout(timer);
    toast.remove();
  };
  const wait = () => {
    clearTimeout(timer);
    timer = setTimeout(remove, DURATION_MS);
  };
  close.addEventListener("click", remove);
  // Like sonner: the time stops while the visitor reads or focuses the toast.
  toast.addEventListener("pointerenter", () => clearTimeout(timer));
  toast.addEventListener("pointerleave", () => {
    if (!toast.contains(document.activeElement)) wait();
  });
  toast.addEventListener("focusin", () => clearTimeout(timer));
  toast.addEventListener("focusout", (event) => {
    if (!(event.relatedTarget instanceof Node && toast.contains(event.relatedTarget))) wait();
  });
  list.prepend(toast);
  while (list.children.length > VISIBLE_TOASTS) list.lastElementChild?.remove();
  wait();
}
