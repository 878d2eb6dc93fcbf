import { parse, type DefaultTreeAdapterMap } from "parse5";
import { describe, expect, it } from "vitest";
import { DEMO_POSTS } from "~/server/demo-content.server";
import { renderMarkdown } from "./markdown.server";

type ParentNode = DefaultTreeAdapterMap["parentNode"];
const BLOCKS = new Set(["p", "div", "li", "ul", "ol", "blockquote", "pre", "h2", "h3", "h4", "h5", "h6", "table", "tr", "section"]);

/** What a reader sees: text nodes, with a break for <br> and around blocks (as a browser lays them out). */
function visibleText(html: string): string {
  const walk = (node: ParentNode): string => {
    let out = "";
    for (const child of node.childNodes) {
      if (child.nodeName === "#text" && "value" in child) out += child.value;
      else if ("tagName" in child) {
        if (child.tagName === "br") out += "\n";
        else if (BLOCKS.has(child.tagName)) out += `\n${walk(child)}\n`;
        else out += walk(child);
      }
    }
    return out;
  };
  return walk(parse(html));
}

/** Whitespace runs count as one space: a plain-text post reads as its text, paragraphs carry the spacing. */
const normalize = (text: string) => text.replace(/\s+/g, " ").trim();

/** Characters Markdown would read as syntax at a line start or around words. */
const MARKDOWN_SYNTAX = /(^|\n)\s*(#{1,6}\s|[-+*]\s|\d+[.)]\s|>|```|~~~| {4})|[*_`~[\]<>\\|]|&\w+;/;

describe("existing plain-text posts under the Markdown renderer", () => {
  it.each(DEMO_POSTS.map((p) => [p.slug, p.content] as const))(
    "shows the same visible text for the demo post %s",
    async (_slug, content) => {
      const after = await renderMarkdown(content, { siteUrl: "https://site.example" });
      expect(normalize(visibleText(after.html))).toBe(normalize(content));
      expect(normalize(after.text)).toBe(normalize(content));
    },
  );

  it("keeps the demo posts' paragraphs and line breaks as paragraphs and breaks", async () => {
    for (const post of DEMO_POSTS) {
      const { html } = await renderMarkdown(post.content, { siteUrl: "https://site.example" });
      const paragraphs = post.content.split(/\n{2,}/);
      expect(html.match(/<p>/g)?.length).toBe(paragraphs.length);
      expect(html.match(/<br>/g)?.length ?? 0).toBe(paragraphs.reduce((n, p) => n + (p.match(/\n/g)?.length ?? 0), 0));
    }
  });

  it("no demo post contains characters Markdown would interpret (so none needs escaping on migration)", () => {
    expect(DEMO_POSTS.filter((p) => MARKDOWN_SYNTAX.test(p.content)).map((p) => p.slug)).toEqual([]);
  });

  it("the syntax check notices what would change a plain-text post", () => {
    for (const content of ["# Heading", "1. first", "a *b* c", "snake_case", "    indented", "<b>", "a | b", "&amp;"])
      expect(MARKDOWN_SYNTAX.test(content), content).toBe(true);
    expect(MARKDOWN_SYNTAX.test("Plain words, a dash - and 3.5 apples.")).toBe(false);
  });

  it("still links a bare URL in a plain-text post", async () => {
    const content = "Read https://example.com/guide.\nThanks";
    const { html } = await renderMarkdown(content, { siteUrl: "https://site.example" });
    expect(normalize(visibleText(html))).toBe(normalize(content));
    expect(html).toContain('<a href="https://example.com/guide" rel="noopener noreferrer nofollow">https://example.com/guide</a>.');
  });
});
