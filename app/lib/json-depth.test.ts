import { describe, expect, it } from "vitest";
import { jsonDepth, jsonDepthMeter } from "./json-depth";

describe("jsonDepth", () => {
  it("counts arrays and objects, not brackets inside strings", () => {
    expect(jsonDepth('"x"')).toBe(0);
    expect(jsonDepth('{"a": [1, {"b": []}]}')).toBe(4);
    expect(jsonDepth('{"a": "[[[[\\"{{{"}')).toBe(1);
    expect(jsonDepth("[".repeat(10_000) + "]".repeat(10_000))).toBe(10_000);
  });

  it("reads bytes across pieces like the whole text", () => {
    const meter = jsonDepthMeter();
    const text = '[{"s": "\\\\"}, [[["]]"]]]]\n{"n": 1}';
    for (let i = 0; i < text.length; i += 3) meter.update(new TextEncoder().encode(text.slice(i, i + 3)));
    expect(meter.max).toBe(jsonDepth(text));
    expect(meter.max).toBe(4);
  });
});
