import TurndownService from "turndown";
import { z } from "zod";
// The converters below recurse: a body nested deeper than the import limit is refused before them.
import { parseExportJson } from "./import-core.server";

/**
 * A Ghost post's body as our Markdown. Ghost stores it as Lexical (5.x), mobiledoc (older) and, in
 * most exports, the rendered `html` too. HTML goes through turndown; the JSON formats are walked into
 * blocks of HTML (then turndown) or, for Markdown cards, Markdown as the author wrote it.
 */
const turndown = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-", emDelimiter: "_" });
turndown.addRule("strikethrough", { filter: ["del", "s"], replacement: (content) => `~~${content}~~` });
// Ghost's cards carry scripts and iframes (embeds): not content, and our renderer would drop them anyway.
turndown.remove(["script", "style", "iframe"]);

export function htmlToMarkdown(html: string): string {
  return turndown.turndown(html).trim();
}

type Block = { html: string } | { markdown: string };

function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

function blocksToMarkdown(blocks: Block[]): string {
  return blocks
    .map((b) => ("markdown" in b ? b.markdown.trim() : htmlToMarkdown(b.html)))
    .filter((b) => b !== "")
    .join("\n\n");
}

function imageHtml(src: unknown, alt: unknown, caption: unknown): string {
  if (typeof src !== "string" || src === "") return "";
  const img = `<img src="${escapeHtml(src)}" alt="${escapeHtml(typeof alt === "string" ? alt : "")}">`;
  return typeof caption === "string" && caption !== "" ? `<p>${img}</p><p>${caption}</p>` : `<p>${img}</p>`;
}

function codeHtml(code: unknown, language: unknown): string {
  const lang = typeof language === "string" && /^[\w+-]+$/.test(language) ? ` class="language-${language}"` : "";
  return `<pre><code${lang}>${escapeHtml(typeof code === "string" ? code : "")}</code></pre>`;
}

/** The cards both formats share, by their payload. */
function cardBlock(name: string, payload: Record<string, unknown>): Block | null {
  switch (name) {
    case "markdown":
      return typeof payload.markdown === "string" ? { markdown: payload.markdown } : null;
    case "html":
      return typeof payload.html === "string" ? { html: payload.html } : null;
    case "image":
      return { html: imageHtml(payload.src, payload.alt ?? payload.altText, payload.caption) };
    case "code":
    case "codeblock":
      return { html: codeHtml(payload.code, payload.language) };
    case "hr":
    case "horizontalrule":
      return { markdown: "---" };
    case "bookmark":
    case "embed":
      return typeof payload.url === "string"
        ? { html: `<p><a href="${escapeHtml(payload.url)}">${escapeHtml(payload.url)}</a></p>` }
        : null;
    default:
      return null;
  }
}

// ---- Lexical ----

const lexicalNode: z.ZodType<LexicalNode> = z.lazy(() => z.looseObject({ type: z.string(), children: z.array(lexicalNode).optional() }));
interface LexicalNode {
  type: string;
  children?: LexicalNode[];
  [key: string]: unknown;
}

const FORMAT_TAGS: [number, string][] = [
  [1, "strong"],
  [2, "em"],
  [4, "s"],
  [16, "code"],
];

function lexicalInline(nodes: LexicalNode[] | undefined): string {
  return (nodes ?? [])
    .map((node) => {
      if (node.type === "text" || node.type === "extended-text") {
        const format = typeof node.format === "number" ? node.format : 0;
        let html = escapeHtml(typeof node.text === "string" ? node.text : "");
        for (const [bit, tag] of FORMAT_TAGS) if (format & bit) html = `<${tag}>${html}</${tag}>`;
        return html;
      }
      if (node.type === "linebreak") return "<br>";
      if (node.type === "link" || node.type === "autolink")
        return `<a href="${escapeHtml(typeof node.url === "string" ? node.url : "")}">${lexicalInline(node.children)}</a>`;
      return lexicalInline(node.children);
    })
    .join("");
}

function lexicalList(node: LexicalNode): string {
  const tag = node.listType === "number" ? "ol" : "ul";
  const items = (node.children ?? []).map((item) => {
    const nested = (item.children ?? []).filter((c) => c.type === "list").map(lexicalList);
    return `<li>${lexicalInline((item.children ?? []).filter((c) => c.type !== "list"))}${nested.join("")}</li>`;
  });
  return `<${tag}>${items.join("")}</${tag}>`;
}

function lexicalBlock(node: LexicalNode): Block | null {
  const type = node.type.replace(/^extended-/, "");
  switch (type) {
    case "paragraph":
      return { html: `<p>${lexicalInline(node.children)}</p>` };
    case "heading": {
      const tag = typeof node.tag === "string" && /^h[1-6]$/.test(node.tag) ? node.tag : "h2";
      return { html: `<${tag}>${lexicalInline(node.children)}</${tag}>` };
    }
    case "quote":
    case "aside":
      return { html: `<blockquote><p>${lexicalInline(node.children)}</p></blockquote>` };
    case "list":
      return { html: lexicalList(node) };
    default:
      return cardBlock(type, node);
  }
}

export function lexicalToMarkdown(json: string): string {
  const doc = z.object({ root: z.object({ children: z.array(lexicalNode) }) }).parse(parseExportJson(json));
  return blocksToMarkdown(doc.root.children.map(lexicalBlock).filter((b) => b !== null));
}

// ---- Mobiledoc ----

const mobiledocSchema = z.object({
  atoms: z.array(z.tuple([z.string(), z.string(), z.unknown()])).default([]),
  cards: z.array(z.tuple([z.string(), z.record(z.string(), z.unknown())])).default([]),
  markups: z.array(z.union([z.tuple([z.string()]), z.tuple([z.string(), z.array(z.string())])])).default([]),
  sections: z.array(z.array(z.unknown())),
});
type Mobiledoc = z.output<typeof mobiledocSchema>;

const marker = z.tuple([z.number(), z.array(z.number()), z.number(), z.union([z.string(), z.number()])]);

function openTag([tag, attrs]: Mobiledoc["markups"][number]): string {
  const pairs: string[] = [];
  for (let i = 0; attrs && i + 1 < attrs.length; i += 2) if (attrs[i] === "href") pairs.push(` href="${escapeHtml(attrs[i + 1] ?? "")}"`);
  return `<${tag}${pairs.join("")}>`;
}

function mobiledocMarkers(doc: Mobiledoc, raw: unknown): string {
  const markers = z.array(marker).catch([]).parse(raw);
  const open: string[] = [];
  let html = "";
  for (const [kind, opens, closes, value] of markers) {
    for (const index of opens) {
      const markup = doc.markups[index];
      if (!markup) continue;
      html += openTag(markup);
      open.push(markup[0]);
    }
    html += escapeHtml(kind === 1 && typeof value === "number" ? (doc.atoms[value]?.[1] ?? "") : String(value));
    for (let i = 0; i < closes; i++) html += `</${open.pop() ?? "span"}>`;
  }
  while (open.length > 0) html += `</${open.pop()}>`;
  return html;
}

function mobiledocSection(doc: Mobiledoc, section: unknown[]): Block | null {
  const [kind, a, b] = section;
  if (kind === 1 && typeof a === "string") {
    const tag = /^(p|h[1-6]|blockquote|aside)$/.test(a.toLowerCase()) ? a.toLowerCase().replace("aside", "blockquote") : "p";
    return { html: `<${tag}>${mobiledocMarkers(doc, b)}</${tag}>` };
  }
  if (kind === 2 && typeof a === "string") return { html: imageHtml(a, "", "") };
  if (kind === 3 && typeof a === "string" && Array.isArray(b)) {
    const tag = a.toLowerCase() === "ol" ? "ol" : "ul";
    return { html: `<${tag}>${b.map((item) => `<li>${mobiledocMarkers(doc, item)}</li>`).join("")}</${tag}>` };
  }
  if (kind === 10 && typeof a === "number") {
    const card = doc.cards[a];
    return card ? cardBlock(card[0], card[1]) : null;
  }
  return null;
}

export function mobiledocToMarkdown(json: string): string {
  const doc = mobiledocSchema.parse(parseExportJson(json));
  return blocksToMarkdown(doc.sections.map((s) => mobiledocSection(doc, s)).filter((b) => b !== null));
}

/** The body as Markdown from whichever form the export holds: html first (what Ghost showed), then Lexical, then mobiledoc. */
export function ghostBodyToMarkdown(post: { html?: string | null; lexical?: string | null; mobiledoc?: string | null }): string {
  if (post.html && post.html.trim() !== "") return htmlToMarkdown(post.html);
  if (post.lexical) return lexicalToMarkdown(post.lexical);
  if (post.mobiledoc) return mobiledocToMarkdown(post.mobiledoc);
  return "";
}
