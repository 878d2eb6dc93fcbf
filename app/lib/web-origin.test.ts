import { describe, expect, it } from "vitest";
import { isSitePath, isSitePathOrWebUrl, webOriginOf } from "./web-origin";

describe("webOriginOf", () => {
  it("gives the origin of http(s) addresses with a plain host", () => {
    expect(webOriginOf("https://calendly.com/jo/30min")).toBe("https://calendly.com");
    expect(webOriginOf("http://LOCALHOST:8080/x")).toBe("http://localhost:8080");
    expect(webOriginOf("https://bücher.example/")).toBe("https://xn--bcher-kva.example");
    expect(webOriginOf("https://[::1]:3000/")).toBe("https://[::1]:3000");
  });

  it("refuses hosts that would break or widen a header", () => {
    for (const bad of [
      "https://cal;x.example/",
      "https://a,b.example",
      "https://a!b.example",
      "https://a$b.example",
      "javascript:alert(1)",
      "/path",
      "https://",
    ]) {
      expect(webOriginOf(bad), bad).toBeUndefined();
    }
  });
});

describe("isSitePath / isSitePathOrWebUrl", () => {
  it("takes a path on this site and refuses what a browser reads as another site", () => {
    for (const ok of ["/uploads/a.png", "/images/me.jpg?v=2", "/resume.pdf#page=1", "/"]) expect(isSitePath(ok), ok).toBe(true);
    for (const bad of ["//evil.example/p.png", "/\\evil.example/p.png", "/a\\b.png", "/a b.png", "/a\tb", "/a\u0000b", "uploads/a.png", ""])
      expect(isSitePath(bad), JSON.stringify(bad)).toBe(false);
  });
  it("also takes an http(s) address with a plain host, nothing else", () => {
    expect(isSitePathOrWebUrl("https://cdn.example/p.png")).toBe(true);
    expect(isSitePathOrWebUrl("/\\evil.example/p.png")).toBe(false);
    expect(isSitePathOrWebUrl("javascript:alert(1)")).toBe(false);
  });
});
