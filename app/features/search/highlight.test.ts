import { describe, expect, it } from "vitest";
import { HIGHLIGHT_START as S, HIGHLIGHT_STOP as E, highlightSegments } from "./highlight";

describe("highlightSegments", () => {
  it("splits a snippet into plain and marked runs", () => {
    expect(highlightSegments(`cats were ${S}running${E} fast`)).toEqual([
      { text: "cats were ", mark: false },
      { text: "running", mark: true },
      { text: " fast", mark: false },
    ]);
  });

  it("keeps markup in the text as text", () => {
    expect(highlightSegments(`<img src=x onerror=alert(1)> ${S}<b>${E}`)).toEqual([
      { text: "<img src=x onerror=alert(1)> ", mark: false },
      { text: "<b>", mark: true },
    ]);
  });

  it("survives unbalanced or doubled markers", () => {
    expect(highlightSegments(`${E}a${S}${S}b`)).toEqual([
      { text: "a", mark: false },
      { text: "b", mark: true },
    ]);
    expect(highlightSegments("")).toEqual([]);
  });

  it("merges adjacent runs of the same kind", () => {
    expect(highlightSegments(`${S}a${E}${S}b${E}`)).toEqual([{ text: "ab", mark: true }]);
  });
});
