import { describe, expect, it, vi } from "vitest";
import { renderMarkdown } from "./markdown.server";

const load = vi.hoisted(() => vi.fn());
vi.mock("./code-highlight.server", async (importOriginal) => {
  const actual = await importOriginal<typeof import("./code-highlight.server")>();
  load.mockImplementation(actual.loadCodeHighlighter);
  return { ...actual, loadCodeHighlighter: load };
});

const SITE = "https://example.com";

describe("the highlighter's loading", () => {
  it("is left out for posts without a fence naming a language, and loaded once for the first that has one", async () => {
    const plain = await renderMarkdown("# Notes\n\n```\nno language named\n```\n\nSome `inline` code.", { siteUrl: SITE });
    expect(plain.html).toContain('<pre class="shiki" tabindex="0"><code>no language named</code></pre>');
    expect(load).not.toHaveBeenCalled();
    const highlighted = await renderMarkdown("```ts\nconst x = 1;\n```", { siteUrl: SITE });
    expect(highlighted.html).toContain('data-language="ts"');
    await renderMarkdown("```python\nx = 1\n```", { siteUrl: SITE });
    expect(load).toHaveBeenCalledTimes(1);
  });
});
