import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { linkifyParts, PostContent } from "./post-content";

describe("post content", () => {
  it("links only http(s) URLs, without trailing punctuation", () => {
    expect(linkifyParts("See https://example.com/a?b=1. And javascript:alert(1) and data:text/html,x")).toEqual([
      { kind: "text", value: "See " },
      { kind: "link", href: "https://example.com/a?b=1", value: "https://example.com/a?b=1" },
      { kind: "text", value: ". And javascript:alert(1) and data:text/html,x" },
    ]);
  });

  it("renders HTML in content as inert text and links with safe rel", () => {
    const html = renderToStaticMarkup(
      <PostContent content={'<script>alert(1)</script>\n<img src=x onerror=alert(2)> http://a.example/"onmouseover=alert(3)'} />,
    );
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<img");
    expect(html).toContain("&lt;script&gt;");
    expect(html).toContain('rel="noopener noreferrer nofollow"');
    expect(html).toContain('href="http://a.example/"');
    expect(html).not.toMatch(/href="javascript:/i);
  });
});
