import { describe, expect, it } from "vitest";
import { authorInitials } from "./comment-schema";

describe("authorInitials", () => {
  it("takes the first letters of the first and last words, upper-cased", () => {
    expect(authorInitials("Ada Lovelace")).toBe("AL");
    expect(authorInitials("grace brewster murray hopper")).toBe("GH");
    expect(authorInitials("alice")).toBe("A");
    expect(authorInitials("@bob.smith")).toBe("BS");
    expect(authorInitials("Émile Zola")).toBe("ÉZ");
    expect(authorInitials("  ✨ Dana ✨ ")).toBe("D");
    expect(authorInitials("“Quoted” Name")).toBe("QN");
  });

  it("never answers an empty string", () => {
    expect(authorInitials("")).toBe("?");
    expect(authorInitials("✨ ✨")).toBe("?");
  });
});
