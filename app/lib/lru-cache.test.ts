import { describe, expect, it } from "vitest";
import { LruCache } from "./lru-cache";

describe("LruCache", () => {
  const make = (maxEntries: number, maxSize: number) => new LruCache<string>({ maxEntries, maxSize, sizeOf: (v) => v.length });

  it("evicts the least recently used entry when over the entry limit", () => {
    const cache = make(2, 100);
    cache.set("a", "1");
    cache.set("b", "2");
    expect(cache.get("a")).toBe("1");
    cache.set("c", "3");
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("a")).toBe("1");
    expect(cache.get("c")).toBe("3");
  });

  it("evicts by total size and never keeps a value larger than the budget", () => {
    const cache = make(10, 10);
    cache.set("a", "xxxx");
    cache.set("b", "yyyy");
    cache.set("c", "zzzz");
    expect(cache.get("a")).toBeUndefined();
    expect(cache.totalSize).toBe(8);
    cache.set("huge", "x".repeat(11));
    expect(cache.get("huge")).toBeUndefined();
    expect(cache.size).toBe(2);
  });

  it("replaces a value without counting it twice", () => {
    const cache = make(10, 10);
    cache.set("a", "xxxx");
    cache.set("a", "yy");
    expect(cache.totalSize).toBe(2);
    expect(cache.get("a")).toBe("yy");
  });
});
