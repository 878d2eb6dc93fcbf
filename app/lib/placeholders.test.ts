import { describe, expect, it } from "vitest";
import { fillPlaceholders, unknownPlaceholders } from "./placeholders";

describe("placeholders in editable sentences", () => {
  it("fills known placeholders and drops an empty one with the comma before it", () => {
    expect(fillPlaceholders("Thank you, {name}!", { name: "Ada" })).toBe("Thank you, Ada!");
    expect(fillPlaceholders("Thank you, {name}!", { name: "" })).toBe("Thank you!");
    expect(fillPlaceholders("© {year} {site}. All rights reserved.", { year: "2026", site: "Maya Rivera" })).toBe(
      "© 2026 Maya Rivera. All rights reserved.",
    );
    expect(fillPlaceholders("Braces {other} stay", { name: "x" })).toBe("Braces {other} stay");
  });

  it("names the placeholders a text uses that are unknown", () => {
    expect(unknownPlaceholders("Hi {name}, {nme} and {}", ["name"])).toEqual(["nme", ""]);
    expect(unknownPlaceholders("No placeholder", ["name"])).toEqual([]);
  });
});
