import { describe, expect, it } from "vitest";
import { reservedAddresses } from "./reserved-addresses";

describe("reservedAddresses", () => {
  it("reserves every route's first segment, through layout routes, and the reserved words; parameters and the catch-all reserve nothing", () => {
    const reserved = reservedAddresses([
      { id: "root", path: "" },
      { id: "about", path: "about", parentId: "root" },
      { id: "admin", path: "admin", parentId: "root" },
      { id: "admin-pages", path: "pages/:pageId", parentId: "admin" },
      { id: "editor-layout", parentId: "root" },
      { id: "post-new", path: "7fs/:category/new", parentId: "editor-layout" },
      { id: "owner-page", path: ":address", parentId: "root" },
      { id: "rss", path: "rss.xml", parentId: "root" },
      { id: "not-found", path: "*", parentId: "root" },
    ]);
    for (const word of ["about", "admin", "7fs", "rss.xml", "healthz", "assets"]) expect(reserved.has(word), word).toBe(true);
    for (const word of [":address", "*", "", "speaking"]) expect(reserved.has(word), word).toBe(false);
  });
});
