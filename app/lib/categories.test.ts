import { describe, expect, it } from "vitest";
import { CATEGORIES, CATEGORY_DESCRIPTIONS, parseCategory } from "./categories";

describe("categories", () => {
  it("has the seven categories in order, each with a description", () => {
    expect(CATEGORIES).toEqual(["Faith", "Finance", "Fitness", "Fun", "Friends", "Family", "Figurehead"]);
    for (const c of CATEGORIES) expect(CATEGORY_DESCRIPTIONS[c].length).toBeGreaterThan(10);
    expect(CATEGORY_DESCRIPTIONS.Friends).toBe("Relationships, connections, and community");
  });

  it("reads any letter case and the data spelling Friendship", () => {
    expect(parseCategory("faith")).toBe("Faith");
    expect(parseCategory("FIGUREHEAD")).toBe("Figurehead");
    expect(parseCategory("Friendship")).toBe("Friends");
    expect(parseCategory("friendship")).toBe("Friends");
    expect(parseCategory("Faithful")).toBeNull();
    expect(parseCategory("")).toBeNull();
  });
});
