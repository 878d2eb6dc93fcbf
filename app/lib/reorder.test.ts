import { describe, expect, it } from "vitest";
import { moveInList } from "./reorder";

describe("moveInList", () => {
  it("swaps with the neighbour, and refuses to move past either end or an unknown id", () => {
    expect(moveInList(["a", "b", "c"], "b", "up")).toEqual(["b", "a", "c"]);
    expect(moveInList(["a", "b", "c"], "b", "down")).toEqual(["a", "c", "b"]);
    expect(moveInList(["a", "b", "c"], "a", "up")).toBeNull();
    expect(moveInList(["a", "b", "c"], "c", "down")).toBeNull();
    expect(moveInList(["a", "b", "c"], "x", "up")).toBeNull();
  });
});
