/**
 * A one-line summary of a post for meta descriptions, JSON-LD and feeds: the excerpt when there is
 * one, otherwise the content with its whitespace collapsed, cut at a word boundary with "...".
 */
export function postSummary(post: { excerpt: string | null; content: string }, max = 160): string {
  const source = post.excerpt?.trim() ? post.excerpt : post.content;
  const text = source.replace(/\s+/g, " ").trim();
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 3);
  const space = cut.lastIndexOf(" ");
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}...`;
}
