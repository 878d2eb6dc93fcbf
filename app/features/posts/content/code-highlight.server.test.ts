import { createHighlighterCore } from "shiki/core";
import { createOnigurumaEngine } from "shiki/engine/oniguruma";
import { bundledLanguages } from "shiki/langs";
import { describe, expect, it } from "vitest";
import { HIGHLIGHT_LANGUAGES, loadCodeHighlighter } from "./code-highlight.server";

// In this order: the first test needs a process where no grammar is loaded yet.
describe("the highlighter's grammars", () => {
  it("are loaded only for the languages a post's fences name, with the ones they embed lazily", async () => {
    const code = await loadCodeHighlighter();
    expect(code.resolveLanguage("py")).toBeNull();
    await code.loadLanguages(["py", "brainfuck"]);
    expect(code.resolveLanguage("py")).toBe("py");
    expect(code.resolveLanguage("rust")).toBeNull();
    expect(code.resolveLanguage("brainfuck")).toBeNull();
    // Markdown highlights the fenced blocks inside it with the other grammars of the set, as before.
    await code.loadLanguages(["md"]);
    expect(code.resolveLanguage("rust")).toBe("rust");
    expect(code.resolveLanguage("toml")).toBeNull();
  });

  it("accept every fence name that loading all of them at once accepted, and no other", async () => {
    const all = await createHighlighterCore({
      langs: HIGHLIGHT_LANGUAGES.map((lang) => bundledLanguages[lang]),
      engine: createOnigurumaEngine(import("shiki/wasm")),
    });
    const names = all.getLoadedLanguages();
    const code = await loadCodeHighlighter();
    await code.loadLanguages(names);
    expect(names.filter((name) => code.resolveLanguage(name) === null)).toEqual([]);
    await code.loadLanguages(["scss", "kotlin"]);
    expect(code.resolveLanguage("scss")).toBeNull();
    expect(code.resolveLanguage("kotlin")).toBeNull();
    all.dispose();
  });
});
