// Writes app/features/posts/content/code-highlight.css from the shiki theme the renderer uses, so code blocks
// get their colours from classes (no inline styles). A unit test fails when the file is out of date.
// Usage: npx tsx scripts/generate-code-highlight-css.ts
import { writeFile } from "node:fs/promises";
import { codeHighlightCss } from "~/features/posts/content/code-highlight.server";

const target = new URL("../app/features/posts/content/code-highlight.css", import.meta.url);
await writeFile(target, await codeHighlightCss());
console.log(`wrote ${target.pathname}`);
