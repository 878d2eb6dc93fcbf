import { describe, expect, it } from "vitest";
import { SLUG_MAX, SLUG_MESSAGES, slugCandidate, slugify, slugProblem } from "./slug";

describe("slugify", () => {
  it("follows SPEC §4", () => {
    expect(slugify("Hello, World!")).toBe("hello-world");
    expect(slugify("  --Already--Hyphenated--  ")).toBe("already-hyphenated");
    expect(slugify("Café & Crème 2024")).toBe("caf-cr-me-2024");
    expect(slugify("!!!")).toBe("");
  });
  it("numbers clashing candidates from 2", () => {
    expect(slugCandidate("post", 1)).toBe("post");
    expect(slugCandidate("post", 2)).toBe("post-2");
  });
});

describe("slugProblem (the one slug rule for 'URL slug')", () => {
  it("accepts what slugify makes", () => {
    for (const title of ["Hello, World!", "Café & Crème 2024", "a", "2024"]) expect(slugProblem(slugify(title))).toBeNull();
    expect(slugProblem("a".repeat(SLUG_MAX))).toBeNull();
  });
  it("refuses anything else with a message that says why", () => {
    expect(slugProblem("")).toBe(SLUG_MESSAGES.required);
    expect(slugProblem("a".repeat(SLUG_MAX + 1))).toBe(SLUG_MESSAGES.tooLong);
    for (const bad of ["Hello", "hello world", "-hello", "hello-", "hello--world", "héllo", "hello_world", "a/b", "..", "%2e"])
      expect(slugProblem(bad), bad).toBe(SLUG_MESSAGES.format);
  });
});
