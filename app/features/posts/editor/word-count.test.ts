import { describe, expect, it } from "vitest";
import { countWords } from "./word-count";

describe("countWords", () => {
  it("counts the words a reader sees", () => {
    expect(countWords("")).toBe(0);
    expect(countWords("## Why bother\n\nIt's **well-known** text.")).toBe(5);
  });

  it("leaves out link targets, image addresses and fence info", () => {
    expect(countWords("[the docs](https://example.com/a/b) ![a cat](/uploads/x.png)\n```ts\nconst a = 1\n```")).toBe(7);
  });
});
