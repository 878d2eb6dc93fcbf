/** Marks the image frame of a Featured Work card (featured-card.tsx). */
export const FEATURED_FRAME_ATTRIBUTE = "data-featured-frame";

/**
 * External feed images may vanish or refuse hotlinking: `broken` runs when `img` fails, also when it
 * failed before anyone listened (before hydration, or before the enhancement script ran).
 */
export function whenImageBroken(img: HTMLImageElement, broken: () => void): () => void {
  if (img.complete && img.naturalWidth === 0 && img.currentSrc) {
    broken();
    return () => {};
  }
  img.addEventListener("error", broken, { once: true });
  return () => img.removeEventListener("error", broken);
}

/** Pages without React: a broken card image gives way to the frame's placeholder. */
export function enhanceFeaturedImages(): void {
  for (const img of document.querySelectorAll<HTMLImageElement>(`[${FEATURED_FRAME_ATTRIBUTE}] img`)) {
    whenImageBroken(img, () => img.closest("picture, img")?.remove());
  }
}
