import { performance } from "node:perf_hooks";
import { describe, expect, it } from "vitest";
import { MarkdownTooComplexError, MAX_MARKDOWN_DEPTH } from "./markdown-parse.server";
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
});
