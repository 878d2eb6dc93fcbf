/**
 * Words in a Markdown text as a reader counts them: link targets, image addresses, code fences' info
 * and Markdown punctuation do not count; a word is a run of letters or digits (with inner ' or -).
 */
export function countWords(markdown: string): number {
  const text = markdown
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, " $1 ")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, " $1 ")
    .replace(/^```.*$/gm, " ");
  return text.match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu)?.length ?? 0;
}
