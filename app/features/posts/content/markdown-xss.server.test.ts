import { parse, type DefaultTreeAdapterMap } from "parse5";
import { describe, expect, it } from "vitest";
import { renderMarkdown } from "./markdown.server";
import { XSS_PAYLOADS } from "./markdown-xss.fixtures";

const SITE = "https://site.example";
const PAGE = new URL("/7fs/faith/a-post", SITE);
const FORBIDDEN_TAGS = [
  "script",
  "iframe",
  "frame",
  "frameset",
  "object",
  "embed",
  "applet",
  "style",
  "link",
  "meta",
  "base",
  "form",
  "button",
  "textarea",
  "select",
  "svg",
  "math",
  "template",
  "noscript",
  "video",
  "audio",
  "source",
  "details",
];
const URL_ATTRIBUTES = [
  "href",
  "src",
  "action",
  "formaction",
  "xlink:href",
  "poster",
  "background",
  "data",
  "cite",
  "lowsrc",
  "dynsrc",
  "longdesc",
  "ping",
];
const IMAGE_SOURCE = /^\/(?:uploads|images)\/[A-Za-z0-9/_.-]+$/;

/** How a browser on the post page would resolve the URL: absolute with http(s)/mailto, or same-site. */
function urlProblem(value: string, kind: "link" | "source"): string | null {
  let url: URL;
  try {
    url = new URL(value, PAGE);
  } catch {
    return null; // an unparsable URL goes nowhere
  }
  if (kind === "source") {
    if (IMAGE_SOURCE.test(value)) return null;
    return url.protocol === "http:" || url.protocol === "https:"
      ? value.startsWith(url.protocol)
        ? null
        : `source not absolute: ${value}`
      : `source protocol ${url.protocol}`;
  }
  if (url.protocol === "mailto:") return null;
  if (url.protocol !== "http:" && url.protocol !== "https:") return `link protocol ${url.protocol}`;
  const explicit = /^https?:\/\//i.test(value);
  if (!explicit && url.origin !== PAGE.origin) return `relative link leaves the site: ${value}`;
  return null;
}

type Element = DefaultTreeAdapterMap["element"];
type ParentNode = DefaultTreeAdapterMap["parentNode"];

/** Every element, as the browser's parser (parse5 follows the HTML standard) builds them, templates included. */
function elementsOf(node: ParentNode): Element[] {
  const out: Element[] = [];
  for (const child of node.childNodes) {
    if (!("tagName" in child)) continue;
    out.push(child, ...elementsOf(child));
    if (child.tagName === "template" && "content" in child) out.push(...elementsOf(child.content));
  }
  return out;
}

/** Everything that could run code or load something unexpected, found with a real HTML parser. */
function executableParts(html: string): string[] {
  const elements = elementsOf(parse(`<!doctype html><html><body>${html}</body></html>`));
  const problems: string[] = [];
  for (const tag of FORBIDDEN_TAGS) if (elements.some((el) => el.tagName === tag)) problems.push(`<${tag}>`);
  for (const el of elements) {
    const has = (name: string) => el.attrs.some((a) => a.name === name);
    if (el.tagName === "input" && !(el.attrs.some((a) => a.name === "type" && a.value === "checkbox") && has("disabled")))
      problems.push("enabled <input>");
    for (const attr of el.attrs) {
      const name = (attr.prefix ? `${attr.prefix}:${attr.name}` : attr.name).toLowerCase();
      if (name.startsWith("on")) problems.push(`${name} handler`);
      if (name === "style") problems.push("style attribute");
      if (name === "srcdoc" || name === "http-equiv") problems.push(name);
      if (name === "srcset") {
        for (const candidate of attr.value.split(",")) {
          const problem = urlProblem(candidate.trim().split(/\s+/)[0] ?? "", "source");
          if (problem) problems.push(`srcset: ${problem}`);
        }
      }
      if (URL_ATTRIBUTES.includes(name)) {
        const problem = urlProblem(attr.value, el.tagName === "a" ? "link" : "source");
        if (problem) problems.push(`${name}: ${problem}`);
      }
    }
  }
  return problems;
}

describe("renderMarkdown against XSS payloads", () => {
  it("has a corpus of at least 40 payloads", () => {
    expect(XSS_PAYLOADS.length).toBeGreaterThanOrEqual(40);
  });

  it("the checker itself catches what it must (so the corpus test can fail)", () => {
    expect(executableParts('<a href="javascript:alert(1)">x</a>')).toContain("href: link protocol javascript:");
    expect(executableParts('<a href="//evil.example">x</a>')).toContain("href: relative link leaves the site: //evil.example");
    expect(executableParts('<img src="data:image/png;base64,AA">')).toContain("src: source protocol data:");
    expect(executableParts('<img srcset="data:image/png;base64,AA 1x">')).toContain("srcset: source protocol data:");
    expect(executableParts("<p onclick=x style=y>t</p><svg></svg>")).toEqual(["<svg>", "onclick handler", "style attribute"]);
    expect(executableParts('<a href="https://ok.example/">x</a><a href="/blog">y</a><img src="/uploads/a.png">')).toEqual([]);
  });

  it.each(XSS_PAYLOADS)("renders '$name' inert", async ({ markdown }) => {
    const { html } = await renderMarkdown(markdown, { siteUrl: SITE });
    expect(executableParts(html)).toEqual([]);
    expect(html).not.toMatch(/<(script|iframe|object|embed|style|meta|base|form|svg|math)\b/i);
  });

  it("renders the whole corpus as one post inert", async () => {
    const { html } = await renderMarkdown(XSS_PAYLOADS.map((p) => p.markdown).join("\n\n"), { siteUrl: SITE });
    expect(executableParts(html)).toEqual([]);
  });

  it("shows raw HTML as text rather than dropping what the author typed", async () => {
    const { html, text } = await renderMarkdown("<script>alert(1)</script>", { siteUrl: SITE });
    expect(html).toBe("<p>&#x3C;script>alert(1)&#x3C;/script></p>");
    expect(text).toBe("<script>alert(1)</script>");
  });

  it.each([
    ["[x](javascript:alert(1))", "x"],
    ["[x](java&#x09;script:alert(1))", "x"],
    ["[x](//evil.example)", "x"],
    ["<javascript:alert(1)>", "javascript:alert(1)"],
    ["[x][r]\n\n[r]: vbscript:msgbox(1)", "x"],
  ])("keeps only the text of a refused link: %s", async (markdown, text) => {
    const { html } = await renderMarkdown(markdown, { siteUrl: SITE });
    expect(html).not.toContain("<a");
    expect(html).toBe(`<p>${text}</p>`);
  });

  it("keeps a backslash path on this site, percent-encoded, never as a host", async () => {
    const { html } = await renderMarkdown("[x](/\\\\evil.example)", { siteUrl: SITE });
    expect(html).toBe('<p><a href="/%5Cevil.example">x</a></p>');
  });

  it.each([
    ["![x](javascript:alert(1))", "<p>x</p>"],
    ["![x](data:image/png;base64,iVBORw0KGgo=)", "<p>x</p>"],
    ["![x](//evil.example/a.png)", "<p>x</p>"],
    ["![](data:image/png;base64,iVBORw0KGgo=)", "<p></p>"],
  ])("never uses a refused image source: %s", async (markdown, html) => {
    expect((await renderMarkdown(markdown, { siteUrl: SITE })).html).toBe(html);
  });
});
