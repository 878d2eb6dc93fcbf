import { describe, expect, it } from "vitest";
import { renderMarkdown } from "./markdown.server";
import { tableOfContents } from "./table-of-contents.server";

const render = async (markdown: string) => (await renderMarkdown(markdown, { siteUrl: "https://site.example" })).html;

describe("tableOfContents", () => {
  it("lists the h2 and h3 headings of the rendered post, in order, with their ids and text", async () => {
    const html = await render(
      "# Getting started\n\nText\n\n## Tools & *setup*\n\nMore\n\n### Deeper still\n\nignored level\n\n# Getting started\n\n# `code` <b>x</b>",
    );
    expect(tableOfContents(html)).toEqual([
      { depth: 2, id: "getting-started", text: "Getting started" },
      { depth: 3, id: "tools--setup", text: "Tools & setup" },
      { depth: 2, id: "getting-started-1", text: "Getting started" },
      { depth: 2, id: "code-bxb", text: "code <b>x</b>" },
    ]);
    // Every entry points at an id the HTML has.
    for (const entry of tableOfContents(html)) expect(html).toContain(` id="${entry.id}"`);
  });

  it("gives none to a post with fewer than three h2/h3 headings (deeper levels do not count)", async () => {
    expect(tableOfContents(await render("# One\n\n## Two\n\n### Three is h4\n\n#### h5"))).toEqual([]);
    expect(tableOfContents(await render("No headings at all"))).toEqual([]);
    expect(tableOfContents("")).toEqual([]);
  });

  it("leaves out the footnotes' hidden label", async () => {
    const html = await render("# A\n\n# B\n\nClaim[^1]\n\n[^1]: Source.");
    expect(html).toContain('id="footnote-label"');
    expect(tableOfContents(html)).toEqual([]);
    const three = await render("# A\n\n# B\n\n# C\n\nClaim[^1]\n\n[^1]: Source.");
    expect(tableOfContents(three).map((e) => e.id)).toEqual(["a", "b", "c"]);
  });
});
