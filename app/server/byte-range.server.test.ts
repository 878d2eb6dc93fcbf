import { describe, expect, it } from "vitest";
import { parseByteRange } from "./byte-range.server";

describe("parseByteRange", () => {
  it("reads single byte ranges, suffixes and open ends", () => {
    expect(parseByteRange("bytes=0-99", 1000)).toEqual({ start: 0, end: 99 });
    expect(parseByteRange("bytes=900-", 1000)).toEqual({ start: 900, end: 999 });
    expect(parseByteRange("bytes=-100", 1000)).toEqual({ start: 900, end: 999 });
    expect(parseByteRange("bytes=-5000", 1000)).toEqual({ start: 0, end: 999 });
    expect(parseByteRange("bytes=990-5000", 1000)).toEqual({ start: 990, end: 999 });
  });

  it("answers unsatisfiable past the end, and ignores what it does not serve", () => {
    expect(parseByteRange("bytes=1000-", 1000)).toBe("unsatisfiable");
    expect(parseByteRange("bytes=-0", 1000)).toBe("unsatisfiable");
    expect(parseByteRange(null, 1000)).toBeUndefined();
    expect(parseByteRange("bytes=0-1,5-6", 1000)).toBeUndefined();
    expect(parseByteRange("items=0-1", 1000)).toBeUndefined();
    expect(parseByteRange("bytes=5-1", 1000)).toBeUndefined();
    expect(parseByteRange("bytes=-", 1000)).toBeUndefined();
  });
});
