/** The longest file-name search the media library takes. */
export const MEDIA_SEARCH_MAX = 200;

/** The media library's kind filter: images (post images, portrait, logo, favicon) or other files (the resume). */
export const MEDIA_KINDS = ["images", "other"] as const;
export type MediaKindFilter = (typeof MEDIA_KINDS)[number];

/** The kind in an address (`?kind=`), or null for every kind (an unknown value too). */
export function mediaKindOf(value: string | null | undefined): MediaKindFilter | null {
  return MEDIA_KINDS.find((k) => k === value) ?? null;
}

/** A file's size as the media library shows it: B, KB or MB with one decimal. */
export function sizeOf(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * The alt text an upload is shown with wherever it appears (a post's body, featured image and gallery):
 * the library's, kept with the file and edited once for every place; the alt saved with a use only
 * while the library has none.
 */
export function shownAlt(libraryAlt: string | null | undefined, savedAlt: string | null | undefined): string {
  return libraryAlt?.trim() || savedAlt || "";
}
