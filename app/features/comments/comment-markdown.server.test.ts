import { describe, expect, it } from "vitest";
import { renderCommentMarkdown } from "./comment-markdown.server";

const SITE = "https://site.example";

describe("comment Markdown", () => {
  it("keeps emphasis, code and links; external links are user content, never followed", async () => {
    const html = await renderCommentMarkdown("*Nice* and **bold** with `code` and [docs](https://docs.example/a)", SITE);
    expect(html).toBe(
      '<p><em>Nice</em> and <strong>bold</strong> with <code>code</code> and <a href="https://docs.example/a" rel="nofollow ugc noopener noreferrer">docs</a></p>',
    );
  });

  it("turns headings into paragraphs and images into their alt text", async () => {
    const html = await renderCommentMarkdown("# Big\n\n![a cat](https://img.example/cat.png)", SITE);
    expect(html).toBe("<p>Big</p>\n<p>a cat</p>");
  });

  it("never emits raw HTML, scripts or javascript: links", async () => {
    const html = await renderCommentMarkdown("<script>alert(1)</script> <img src=x onerror=alert(1)> [x](javascript:alert(1))", SITE);
    expect(html).not.toMatch(/<script|<img|href="javascript/i);
    expect(html).toContain("&#x3C;script>");
  });
});
