/** The class of a section that fades in (reveal.tsx draws it; app.css styles data-reveal). */
export const REVEAL_CLASS = "reveal";

/**
 * Hides `element` until it scrolls into view, only in a browser with IntersectionObserver, without
 * prefers-reduced-motion, and only while it is still below the fold — so content never depends on
 * JavaScript. Returns what shows it for good. Used by Reveal (React) and app/enhance (pages without React).
 */
export function revealOnScroll(element: HTMLElement): () => void {
  if (typeof IntersectionObserver === "undefined") return () => {};
  if (window.matchMedia("(prefers-reduced-motion: reduce)").matches) return () => {};
  if (element.getBoundingClientRect().top < window.innerHeight) return () => {};
  element.dataset.reveal = "hidden";
  const observer = new IntersectionObserver(
    (entries) => {
      if (entries.some((entry) => entry.isIntersecting)) {
        element.dataset.reveal = "shown";
        observer.disconnect();
      }
    },
    { rootMargin: "0px 0px -10% 0px" },
  );
  observer.observe(element);
  return () => {
    observer.disconnect();
    element.dataset.reveal = "shown";
  };
}

export function enhanceReveals(): void {
  for (const element of document.querySelectorAll<HTMLElement>(`section.${REVEAL_CLASS}`)) revealOnScroll(element);
}
