import { describe, expect, it } from "vitest";
import { applyFormat, insertImage, shortcutAction, type TextState } from "./markdown-edits";

/** A state from text with the selection marked by | ... | (or a single | for a cursor). */
function st(marked: string): TextState {
  const start = marked.indexOf("|");
  const rest = marked.slice(0, start) + marked.slice(start + 1);
  const second = rest.indexOf("|");
  if (second === -1) return { value: rest, start, end: start };
  return { value: rest.slice(0, second) + rest.slice(second + 1), start, end: second };
}
const show = (s: TextState) =>
  s.start === s.end
    ? s.value.slice(0, s.start) + "|" + s.value.slice(s.start)
    : s.value.slice(0, s.start) + "|" + s.value.slice(s.start, s.end) + "|" + s.value.slice(s.end);

describe("Markdown toolbar edits", () => {
  it("wraps the selection, or inserts a selected placeholder at the cursor", () => {
    expect(show(applyFormat(st("a |word| b"), "bold"))).toBe("a **|word|** b");
    expect(show(applyFormat(st("a |b"), "bold"))).toBe("a **|bold text|**b");
    expect(show(applyFormat(st("a |word| b"), "italic"))).toBe("a _|word|_ b");
    expect(show(applyFormat(st("x |y| z"), "code"))).toBe("x `|y|` z");
    expect(show(applyFormat(st("|a\nb|"), "code"))).toBe("\n```\n|a\nb|\n```\n");
  });

  it("links the selected text and selects the address to type; without a selection, selects the text", () => {
    expect(show(applyFormat(st("see |docs| now"), "link"))).toBe("see [docs](|https://|) now");
    expect(show(applyFormat(st("see |"), "link"))).toBe("see [|link text|](https://)");
  });

  it("prefixes each line the selection touches", () => {
    expect(show(applyFormat(st("one\nt|wo"), "heading"))).toBe("one\n## t|wo");
    expect(applyFormat(st("|a\nb\nc|"), "bulleted").value).toBe("- a\n- b\n- c");
    expect(applyFormat(st("|a\nb|\nc"), "numbered").value).toBe("1. a\n2. b\nc");
    expect(applyFormat(st("x\n|quoted|"), "quote").value).toBe("x\n> quoted");
  });

  it("inserts an image with its alt text on a line of its own", () => {
    expect(show(insertImage(st("before|after"), { url: "/uploads/a.jpg", alt: "A [red] car" }))).toBe(
      "before\n![A \\[red\\] car](/uploads/a.jpg)|\nafter",
    );
    expect(show(insertImage(st("|"), { url: "/uploads/a.jpg", alt: "" }))).toBe("![](/uploads/a.jpg)|");
  });

  it("maps Ctrl/Cmd+B, I, K and nothing else", () => {
    const key = (k: string, mods: Partial<{ ctrlKey: boolean; metaKey: boolean; altKey: boolean; shiftKey: boolean }>) =>
      shortcutAction({ key: k, ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, ...mods });
    expect(key("b", { ctrlKey: true })).toBe("bold");
    expect(key("I", { metaKey: true })).toBe("italic");
    expect(key("k", { ctrlKey: true })).toBe("link");
    expect(key("b", {})).toBeNull();
    expect(key("b", { ctrlKey: true, shiftKey: true })).toBeNull();
    expect(key("s", { ctrlKey: true })).toBeNull();
  });
});
