import type { Element } from "hast";
import { fromHtml } from "hast-util-from-html";
import { toString } from "hast-util-to-string";
import { SKIP, visit } from "unist-util-visit";

/** A post gets a table of contents from this many headings on. */
export const TOC_MIN_HEADINGS = 3;

export interface TocEntry {
  /** 2 or 3: the rendered level (`#` in Markdown is h2, as the post title is the page's h1). */
  depth: 2 | 3;
  /** The heading's id in the rendered content (markdown.server.ts gives every heading one). */
  id: string;
  text: string;
}

const FOOTNOTES_LABEL = "footnote-label";

function idOf(node: Element): string | null {
  const id = node.properties.id;
  return typeof id === "string" && id !== "" ? id : null;
}

/**
 * The h2/h3 headings of a post's stored rendering, in order, or none when it has fewer than
 * TOC_MIN_HEADINGS. Read from the HTML the page shows, so every entry links to an id that exists.
 * The footnotes' hidden label is not a section of the post.
 */
export function tableOfContents(html: string): TocEntry[] {
  const entries: TocEntry[] = [];
  visit(fromHtml(html, { fragment: true }), "element", (node) => {
    if (node.tagName !== "h2" && node.tagName !== "h3") return;
    const id = idOf(node);
    const text = toString(node).replace(/\s+/g, " ").trim();
    if (id && id !== FOOTNOTES_LABEL && text) entries.push({ depth: node.tagName === "h2" ? 2 : 3, id, text });
    return SKIP;
  });
  return entries.length >= TOC_MIN_HEADINGS ? entries : [];
}
