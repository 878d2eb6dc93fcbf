/** The longest file-name search the media library takes. */
export const MEDIA_SEARCH_MAX = 200;

/** A file's size as the media library shows it: B, KB or MB with one decimal. */
export function sizeOf(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
