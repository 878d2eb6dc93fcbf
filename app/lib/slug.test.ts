import { describe, expect, it } from "vitest";
import { slugCandidate, slugify } from "./slug";

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
