const WORDS_PER_MINUTE = 200;

/** SPEC §9: whitespace-separated words divided by 200, rounded up, in minutes. */
export function readingTimeMinutes(content: string): number {
  const words = content.split(/\s+/).filter(Boolean).length;
  return Math.ceil(words / WORDS_PER_MINUTE);
}

export function readingTimeLabel(content: string): string {
  return `${readingTimeMinutes(content)} min read`;
}
