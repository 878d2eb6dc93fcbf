import { describe, expect, it } from "vitest";
import { NotFoundError } from "./errors.server";
import { pageOffset, pageParam, pageWindow } from "./pagination.server";

describe("pageWindow", () => {
  it("gives the offset and the page count; an empty list has one empty page", () => {
    expect(pageWindow(53, 2, 50)).toEqual({ page: 2, pageCount: 2, offset: 50, limit: 50 });
    expect(pageWindow(50, 1, 50)).toEqual({ page: 1, pageCount: 1, offset: 0, limit: 50 });
    expect(pageWindow(0, 1, 12)).toEqual({ page: 1, pageCount: 1, offset: 0, limit: 12 });
  });

  it("answers a page past the last (or not a page at all) with a 404", () => {
    expect(() => pageWindow(53, 3, 50)).toThrow(NotFoundError);
    expect(() => pageWindow(0, 2, 12)).toThrow(NotFoundError);
    expect(() => pageWindow(10, 0, 12)).toThrow(NotFoundError);
    expect(() => pageWindow(10, 1.5, 12)).toThrow(NotFoundError);
  });
});

describe("pageOffset", () => {
  it("gives where a page starts before the total is known, and 404s what is not a page", () => {
    expect(pageOffset(1, 10)).toBe(0);
    expect(pageOffset(3, 10)).toBe(20);
    expect(() => pageOffset(0, 10)).toThrow(NotFoundError);
    expect(() => pageOffset(2.5, 10)).toThrow(NotFoundError);
  });
});

describe("pageParam", () => {
  const at = (query: string) => pageParam(new Request(`http://localhost/list${query}`));
  it("reads ?page=N and treats anything malformed as page 1", () => {
    expect(at("?page=3")).toBe(3);
    for (const query of ["", "?page=", "?page=0", "?page=-5", "?page=abc", "?page=99999999999999999999", "?page=%FF"])
      expect(at(query)).toBe(1);
  });
});
