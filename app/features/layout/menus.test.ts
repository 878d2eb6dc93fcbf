import { describe, expect, it } from "vitest";
import { DEFAULT_MENUS, isSitePath, navFitOrder } from "./menus";

describe("menus", () => {
  it("gives way in the bar's old order with the default header menu", () => {
    expect(navFitOrder(DEFAULT_MENUS.header)).toEqual([
      "newsletter",
      "link-4",
      "link-3",
      "link-2",
      "link-1",
      "link-6",
      "services",
      "categories",
      "link-0",
    ]);
    expect(navFitOrder([])).toEqual([]);
  });

  it("links no design page in the default footer", () => {
    const hrefs = DEFAULT_MENUS.footer.flatMap((column) => column.items.flatMap((item) => (item.kind === "link" ? [item.href] : [])));
    expect(hrefs).not.toContain("/hero-mockups");
    expect(hrefs).toContain("/contact");
  });

  it("tells a site path from another site's address", () => {
    expect(isSitePath("/about")).toBe(true);
    expect(isSitePath("//evil.example")).toBe(false);
    expect(isSitePath("https://example.com")).toBe(false);
  });
});
