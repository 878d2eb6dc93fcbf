import { performance } from "node:perf_hooks";
import { describe, expect, it } from "vitest";
import { CONTENT_MAX } from "../write/post-schema";
import { MarkdownTooComplexError, MAX_MARKDOWN_DEPTH, parseMarkdown, releaseParser } from "./markdown-parse.server";
import { renderMarkdown } from "./markdown.server";

const SITE = "https://site.example";

/** The event loop's longest stall while `work` runs, from a 10 ms timer's lateness. */
async function longestStall(work: () => Promise<unknown>): Promise<number> {
  let last = performance.now();
  let stall = 0;
  const tick = setInterval(() => {
    const now = performance.now();
    stall = Math.max(stall, now - last - 10);
    last = now;
  }, 10);
  try {
    await work().catch(() => undefined);
  } finally {
    clearInterval(tick);
  }
  return Math.max(stall, performance.now() - last - 10);
}

describe("releasing the parse worker", () => {
  it("ends it only after the texts already queued, and the next text gets a new one", async () => {
    const first = parseMarkdown("# one");
    const second = parseMarkdown("two *words*");
    const released = releaseParser();
    const third = parseMarkdown("- three");
    const trees = await Promise.all([first, second, third]);
    await released;
    expect(trees.map((tree) => tree.children[0]?.type)).toEqual(["heading", "paragraph", "list"]);
    await releaseParser();
    expect((await parseMarkdown("four")).children[0]?.type).toBe("paragraph");
  });
});

describe("bounded Markdown rendering", () => {
  it("refuses nesting deeper than the limit with a 422 the author can act on, where it overflowed the stack", async () => {
    for (const source of [">".repeat(200) + " x", "- ".repeat(200) + "x", "*a ".repeat(100) + "a* ".repeat(100)]) {
      const error = await renderMarkdown(source, { siteUrl: SITE }).catch((e: unknown) => e);
      expect(error, source.slice(0, 20)).toBeInstanceOf(MarkdownTooComplexError);
      expect((error as MarkdownTooComplexError).status).toBe(422);
    }
    const nested = Array.from({ length: 6 }, (_, i) => `${"  ".repeat(i)}- level ${i + 1}`).join("\n");
    expect((await renderMarkdown(`> ${nested.replaceAll("\n", "\n> ")}`, { siteUrl: SITE })).html).toContain("level 6");
    expect(MAX_MARKDOWN_DEPTH).toBeGreaterThan(20);
  });

  it("keeps the event loop answering while a pathological text is parsed", async () => {
    await renderMarkdown("warm *up*", { siteUrl: SITE });
    const stall = await longestStall(() => renderMarkdown("[".repeat(40_000), { siteUrl: SITE }));
    console.log(`longest event-loop stall while rendering 40,000 "[": ${stall.toFixed(0)} ms`);
    expect(stall).toBeLessThan(1_000);
  });

  it("refuses a text of tens of thousands of formatting marks with a 422, never holding the loop to render it", async () => {
    await renderMarkdown("warm `up`", { siteUrl: SITE });
    let error: unknown;
    // 30,000 backticks between letters: 30,000 code spans and texts, seconds of rendering on the loop.
    const stall = await longestStall(async () => {
      error = await renderMarkdown("a`".repeat(30_000), { siteUrl: SITE }).catch((e: unknown) => e);
    });
    console.log(`longest event-loop stall while refusing 30,000 backticks: ${stall.toFixed(0)} ms`);
    expect(error).toBeInstanceOf(MarkdownTooComplexError);
    expect((error as MarkdownTooComplexError).status).toBe(422);
    // The bound is ~200 ms on an idle machine; the margin is for a loaded test machine.
    expect(stall).toBeLessThan(500);
  });

  it("still renders prose of the longest allowed length", async () => {
    const paragraph = "Some *text* with a [link](https://example.com/page) and `code`, **bold** words and more words after them.\n\n";
    const source = `## A heading\n\n${paragraph.repeat(Math.floor((CONTENT_MAX - 20) / paragraph.length))}`;
    expect(source.length).toBeLessThanOrEqual(CONTENT_MAX);
    expect((await renderMarkdown(source, { siteUrl: SITE })).html).toContain("A heading");
  });
});
