import { describe, expect, it } from "vitest";
import { parseSubmission } from "~/lib/forms";
import { CATEGORIES_REQUIRED, csvCell, csvRow, subscribeSchema } from "./subscription-schema";

describe("csvCell", () => {
  it.each(['=HYPERLINK("x")', "+1", "-1+2", "@SUM(A1)", "\tx", "\rx"])("neutralises a formula-looking cell %j", (value) => {
    expect(csvCell(value).startsWith(`"'`)).toBe(true);
  });
  it("quotes and doubles inner quotes; leaves ordinary text alone", () => {
    expect(csvRow(['a"b', "jane@example.com", "a,b"])).toBe('"a""b","jane@example.com","a,b"');
  });
});

describe("subscribeSchema", () => {
  const form = (entries: [string, string][]) => {
    const data = new FormData();
    for (const [k, v] of entries) data.append(k, v);
    return parseSubmission(data, subscribeSchema);
  };
  it("reads one or several ticked categories and lower-cases the address", () => {
    const one = form([
      ["email", " Jane@Example.com "],
      ["categories", "Fun"],
    ]);
    expect(one.status === "success" && one.value).toEqual({ email: "jane@example.com", categories: ["Fun"] });
    const two = form([
      ["email", "a@b.co"],
      ["categories", "Fun"],
      ["categories", "Faith"],
    ]);
    expect(two.status === "success" && two.value.categories).toEqual(["Fun", "Faith"]);
  });
  it("asks for at least one known category", () => {
    expect(form([["email", "a@b.co"]]).reply().error?.categories).toEqual([CATEGORIES_REQUIRED]);
    expect(
      form([
        ["email", "a@b.co"],
        ["categories", "Gardening"],
      ]).status,
    ).toBe("error");
  });
});
