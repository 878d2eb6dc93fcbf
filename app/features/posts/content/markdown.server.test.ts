import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { readingTimeMinutes } from "~/lib/reading-time";
import { codeHighlightCss, contrastRatio, CODE_BACKGROUND } from "./code-highlight.server";
import { clearMarkdownCache, renderMarkdown, renderMarkdownCached, uploadImageUrlsIn, type KnownImage } from "./markdown.server";
import { parseMarkdown } from "./markdown-parse.server";

const SITE = "https://site.example";
const render = (markdown: string, images?: ReadonlyMap<string, KnownImage>) => renderMarkdown(markdown, { siteUrl: SITE, images });

const UPLOAD = "/uploads/blog-images/u1/1700000000000-abc123.jpg";
const UPLOADS = new Map<string, KnownImage>([
  [
    UPLOAD,
    {
      width: 2000,
      height: 1000,
      variants: [
        { width: 640, url: "/uploads/blog-images/u1/1700000000000-abc123-640w.webp" },
        { width: 320, url: "/uploads/blog-images/u1/1700000000000-abc123-320w.webp" },
        { width: 1024, url: "javascript:alert(1)" },
      ],
    },
  ],
]);

describe("renderMarkdown: CommonMark, GFM and line breaks", () => {
  it("keeps a single newline as a line break and a blank line as a new paragraph", async () => {
    const { html, text } = await render("First line\nsecond line\n\nNew paragraph");
    expect(html).toBe("<p>First line<br>second line</p>\n<p>New paragraph</p>");
    expect(text).toBe("First line\nsecond line\n\nNew paragraph");
  });

  it("renders emphasis, strong, strikethrough, lists, quotes and rules", async () => {
    const { html } = await render("*it* **bold** ~~gone~~\n\n- a\n- b\n\n1. one\n2. two\n\n> quoted\n\n---");
    expect(html).toContain("<em>it</em> <strong>bold</strong> <del>gone</del>");
    expect(html).toContain("<ul>\n<li>a</li>\n<li>b</li>\n</ul>");
    expect(html).toContain("<ol>\n<li>one</li>\n<li>two</li>\n</ol>");
    expect(html).toContain("<blockquote>\n<p>quoted</p>\n</blockquote>");
    expect(html).toContain("<hr>");
  });

  it("renders tables with alignment as classes (no obsolete align attribute)", async () => {
    const { html, text } = await render("| Left | Middle | Right |\n|:-----|:------:|------:|\n| 1 | 2 | 3 |");
    expect(html).toContain('<th class="md-align-left">Left</th>');
    expect(html).toContain('<td class="md-align-center">2</td>');
    expect(html).toContain('<td class="md-align-right">3</td>');
    expect(html).not.toContain("align=");
    expect(text).toContain("Left\tMiddle\tRight");
  });

  it("renders task lists as disabled, labelled checkboxes", async () => {
    const { html } = await render("- [x] written\n- [ ] published");
    expect(html).toContain('<li class="task-list-item"><input type="checkbox" checked disabled aria-label="Done"> written</li>');
    expect(html).toContain('<li class="task-list-item"><input type="checkbox" disabled aria-label="Not done"> published</li>');
  });

  it("autolinks URLs, www. addresses and e-mail addresses", async () => {
    const { html } = await render("See https://example.com/a?b=1. Or www.example.org, or <https://example.net> or me@example.com");
    expect(html).toContain('<a href="https://example.com/a?b=1" rel="noopener noreferrer nofollow">https://example.com/a?b=1</a>.');
    expect(html).toContain('<a href="http://www.example.org/" rel="noopener noreferrer nofollow">www.example.org</a>,');
    expect(html).toContain('<a href="https://example.net/" rel="noopener noreferrer nofollow">https://example.net</a>');
    expect(html).toContain('<a href="mailto:me@example.com">me@example.com</a>');
  });

  it("shows HTML typed in a post as text, escaped", async () => {
    const { html, text } = await render("I <3 <b>tags</b> & ampersands\n\n<div>\nblock\n</div>");
    expect(html).toBe("<p>I &#x3C;3 &#x3C;b>tags&#x3C;/b> &#x26; ampersands</p>\n<p>&#x3C;div><br>block<br>&#x3C;/div></p>");
    expect(text).toBe("I <3 <b>tags</b> & ampersands\n\n<div>\nblock\n</div>");
  });

  it("renders footnotes with ids that cannot clash with headings", async () => {
    const { html } = await render("Claim[^1]\n\n[^1]: Source.");
    expect(html).toContain(
      '<a href="#user-content-fn-1" id="user-content-fnref-1" data-footnote-ref aria-describedby="footnote-label">1</a>',
    );
    expect(html).toContain('<h2 class="sr-only" id="footnote-label">Footnotes</h2>');
    expect(html).toContain('<li id="user-content-fn-1">');
  });
});

describe("renderMarkdown: headings", () => {
  it("renders # as h2 (the post title is the page's h1) with unique GitHub-style ids", async () => {
    const { html, headings } = await render(
      "# Why bother\n\n## Why *bother*\n\n### Main\n\n#### !!!\n\n###### Six\n\n####### not a heading",
    );
    expect(html).toContain('<h2 id="why-bother">Why bother</h2>');
    expect(html).toContain('<h3 id="why-bother-1">Why <em>bother</em></h3>');
    expect(html).toContain('<h4 id="main-1">Main</h4>');
    expect(html).toContain('<h5 id="section">!!!</h5>');
    expect(html).toContain('<h6 id="six">Six</h6>');
    expect(html).toContain("<p>####### not a heading</p>");
    expect(headings).toEqual([
      { depth: 2, id: "why-bother", text: "Why bother" },
      { depth: 3, id: "why-bother-1", text: "Why bother" },
      { depth: 4, id: "main-1", text: "Main" },
      { depth: 5, id: "section", text: "!!!" },
      { depth: 6, id: "six", text: "Six" },
    ]);
  });
});

describe("renderMarkdown: links", () => {
  it("marks links to other hosts external and leaves the site's own links untouched", async () => {
    const { html } = await render(
      "[ext](https://other.example/x) [abs](https://site.example/7fs/faith) [root](/7fs/faith?a=1#b) [frag](#why-bother) [mail](mailto:me@example.com)",
    );
    expect(html).toBe(
      '<p><a href="https://other.example/x" rel="noopener noreferrer nofollow">ext</a> <a href="https://site.example/7fs/faith">abs</a> <a href="/7fs/faith?a=1#b">root</a> <a href="#why-bother">frag</a> <a href="mailto:me@example.com">mail</a></p>',
    );
    expect(html).not.toContain("target=");
  });

  it("keeps link titles as attributes, escaped", async () => {
    const { html } = await render('[x](https://other.example "A \\"quoted\\" title")');
    expect(html).toContain('title="A &#x22;quoted&#x22; title"');
  });

  it("drops path-relative and protocol-relative links but keeps their text", async () => {
    expect((await render("[about](about) [far](//other.example)")).html).toBe("<p>about far</p>");
  });
});

describe("renderMarkdown: images", () => {
  it("lazy-loads every image and gives our uploads width, height, srcset and sizes", async () => {
    const { html } = await render(`![A chart](${UPLOAD} "Sales") ![Logo](https://cdn.example/logo.png)`, UPLOADS);
    expect(html).toContain(
      `<img src="${UPLOAD}" alt="A chart" title="Sales" loading="lazy" decoding="async" width="2000" height="1000" srcset="/uploads/blog-images/u1/1700000000000-abc123-320w.webp 320w, /uploads/blog-images/u1/1700000000000-abc123-640w.webp 640w, ${UPLOAD} 2000w" sizes="(min-width: 768px) 768px, 100vw">`,
    );
    expect(html).toContain('<img src="https://cdn.example/logo.png" alt="Logo" loading="lazy" decoding="async">');
    expect(html).not.toContain("javascript");
  });

  it("recognises an upload written with the site's absolute URL", async () => {
    const { html } = await render(`![x](${SITE}${UPLOAD})`, UPLOADS);
    expect(html).toContain(`src="${UPLOAD}"`);
    expect(html).toContain('width="2000" height="1000"');
  });

  it("gives an upload without smaller variants its size but no srcset", async () => {
    const { html } = await render("![x](/uploads/small.png)", new Map([["/uploads/small.png", { width: 200, height: 100, variants: [] }]]));
    expect(html).toBe('<p><img src="/uploads/small.png" alt="x" loading="lazy" decoding="async" width="200" height="100"></p>');
  });

  it("lists the uploads a post shows, for the caller to look up", async () => {
    expect(
      uploadImageUrlsIn(
        await parseMarkdown(
          `![a](${UPLOAD}) ![b](https://cdn.example/x.png) ![c][ref] ![d](${SITE}/uploads/b.png)\n\n[ref]: /uploads/c.webp`,
        ),
        SITE,
      ),
    ).toEqual([UPLOAD, "/uploads/b.png", "/uploads/c.webp"]);
  });
});

describe("renderMarkdown: code", () => {
  it("highlights fenced code on the server with classes only", async () => {
    const { html, text } = await render("```ts\nconst answer: number = 42; // why\n```");
    expect(html).toMatch(
      /^<pre class="shiki" tabindex="0" data-language="ts"><code><span class="line"><span class="sk-[0-9a-f]{6}">const<\/span>/,
    );
    expect(html).toMatch(/<span class="sk-[0-9a-f]{6}">\/\/ why<\/span><\/span><\/code><\/pre>$/);
    expect(html).not.toContain("style=");
    expect(html).not.toContain("<script");
    expect(text).toBe("const answer: number = 42; // why");
  });

  it("knows common aliases and renders unknown languages and plain fences as plain code", async () => {
    expect((await render("```sh\necho hi\n```")).html).toContain('data-language="bash"');
    expect((await render("```brainfuck\n+[<b>]\n```")).html).toBe('<pre class="shiki" tabindex="0"><code>+[&#x3C;b>]</code></pre>');
    expect((await render("    indented <i>\n    code")).html).toBe(
      '<pre class="shiki" tabindex="0"><code>indented &#x3C;i>\ncode</code></pre>',
    );
  });

  it("renders inline code escaped", async () => {
    expect((await render("Use `<br>` here")).html).toBe("<p>Use <code>&#x3C;br></code> here</p>");
  });

  it("has only colours with at least 4.5:1 contrast on the block background, in the committed stylesheet", async () => {
    const css = await codeHighlightCss();
    const colors = [...css.matchAll(/[{;] color: (#[0-9a-f]{6});/g)].map((m) => m[1] ?? "");
    expect(colors.length).toBeGreaterThan(5);
    for (const color of colors) expect(contrastRatio(color, CODE_BACKGROUND)).toBeGreaterThanOrEqual(4.5);
    const committed = await readFile(new URL("./code-highlight.css", import.meta.url), "utf8");
    expect(committed, "run: npx tsx scripts/generate-code-highlight-css.ts").toBe(css);
  });
});

describe("renderMarkdown: text and reading time", () => {
  it("extracts the visible text without markup", async () => {
    const { text } = await render(
      "## A *title*\n\nSome **bold** [link](https://x.example) and `code`.\n\n- one\n- two\n\n![alt text](/uploads/a.png)",
    );
    expect(text).toBe("A title\n\nSome bold link and code.\n\none\ntwo");
  });

  it("counts reading time on the text, not the markup", async () => {
    const rows = Array.from({ length: 75 }, (_, i) => `| word${i} | other${i} |`).join("\n");
    const source = `| a | b |\n|---|---|\n${rows}`;
    const { text } = await render(source);
    expect(readingTimeMinutes(source)).toBe(2);
    expect(readingTimeMinutes(text)).toBe(1);
  });
});

describe("renderMarkdownCached", () => {
  it("answers the same content and options from memory, and other images afresh", async () => {
    clearMarkdownCache();
    const options = { siteUrl: SITE, images: UPLOADS };
    const first = await renderMarkdownCached(`![x](${UPLOAD})`, options);
    expect(await renderMarkdownCached(`![x](${UPLOAD})`, { siteUrl: SITE, images: new Map(UPLOADS) })).toBe(first);
    const other = await renderMarkdownCached(`![x](${UPLOAD})`, { siteUrl: SITE });
    expect(other).not.toBe(first);
    expect(other.html).not.toContain("srcset");
  });
});
