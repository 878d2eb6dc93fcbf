import { createHash } from "node:crypto";
import GithubSlugger from "github-slugger";
import type { Element, Root as HastRoot } from "hast";
import { toString } from "hast-util-to-string";
import { toText } from "hast-util-to-text";
import type { Root as MdastRoot, RootContent as MdastContent } from "mdast";
import rehypeSanitize from "rehype-sanitize";
import rehypeStringify from "rehype-stringify";
import remarkBreaks from "remark-breaks";
import remarkGfm from "remark-gfm";
import remarkRehype from "remark-rehype";
import { unified } from "unified";
import { SKIP, visit } from "unist-util-visit";
import { isSafeImageUrl } from "~/features/media/media";
import { shownAlt } from "~/features/uploads/media-library";
import { uploadKeyOf } from "~/features/uploads/uploads.server";
import { LruCache } from "~/lib/lru-cache";
import { loadCodeHighlighter, plainCodeBlock, type CodeHighlighter } from "./code-highlight.server";
import { classifyLink, safeImageSrc, sitePath } from "./content-urls";
import { parseMarkdown } from "./markdown-parse.server";
import { MARKDOWN_SANITIZE_SCHEMA } from "./markdown-schema.server";

/** One of our uploads, as the caller knows it from the database (the renderer never queries it). */
export interface KnownImage {
  width: number;
  height: number;
  /** Smaller WebP copies (320–1600 px wide), as site paths like /uploads/...-640w.webp. */
  variants: readonly { width: number; url: string }[];
  /** The alt text kept with the upload in the media library: shown instead of the one written in the post (shownAlt). */
  alt?: string;
}

export interface RenderMarkdownOptions {
  /** The site's public URL: absolute links to its host are internal, every other host is external. */
  siteUrl: string;
  /** Our uploads by site path (/uploads/...), for width/height and srcset. */
  images?: ReadonlyMap<string, KnownImage>;
  /** `sizes` for uploads with variants; the default matches the post page's content column. */
  imageSizes?: string;
}

export interface MarkdownHeading {
  /** The rendered level (headingLevels): the highest level the post uses is h2, as the post title is the page's only h1. */
  depth: number;
  id: string;
  text: string;
}

export interface RenderedMarkdown {
  html: string;
  /** The visible text (block breaks as newlines): reading time, JSON-LD articleBody, search, RSS description. */
  text: string;
  headings: MarkdownHeading[];
}

export const DEFAULT_IMAGE_SIZES = "(min-width: 768px) 768px, 100vw";
/** Ids the layout around the content already uses; a heading with that slug gets `-1`. */
export const RESERVED_IDS = ["main", "footnote-label"] as const;
const HEADING = /^h([1-6])$/;
const ALIGN = new Set(["left", "center", "right"]);

const FLOW_PARENTS = new Set(["root", "blockquote", "listItem", "footnoteDefinition"]);

/**
 * Raw HTML is never interpreted: `<b>` in a post shows as the characters `<b>`, as it always has.
 * Block HTML becomes a paragraph of text, inline HTML a text run.
 */
function remarkRawHtmlAsText() {
  return (tree: MdastRoot) => {
    visit(tree, "html", (node, index, parent) => {
      if (!parent || index === undefined) return;
      const text = { type: "text" as const, value: node.value };
      const replacement: MdastContent = FLOW_PARENTS.has(parent.type) ? { type: "paragraph", children: [text] } : text;
      parent.children.splice(index, 1, replacement);
      return [SKIP, index + 1];
    });
  };
}

interface TransformContext {
  siteUrl: URL;
  images: ReadonlyMap<string, KnownImage>;
  imageSizes: string;
  code: CodeHighlighter;
}

function stringProperty(node: Element, name: string): string | null {
  const value = node.properties[name];
  return typeof value === "string" ? value : null;
}

function fenceLanguage(code: Element): string | null {
  const classes = code.properties.className;
  if (!Array.isArray(classes)) return null;
  for (const c of classes) if (typeof c === "string" && c.startsWith("language-")) return c.slice("language-".length);
  return null;
}

function uploadSrcSet(src: string, image: KnownImage): string | null {
  const variants = image.variants.filter(
    (v) => v.width > 0 && v.width < image.width && uploadKeyOf(v.url) !== null && isSafeImageUrl(v.url),
  );
  if (variants.length === 0) return null;
  return [...variants.sort((a, b) => a.width - b.width).map((v) => `${v.url} ${v.width}w`), `${src} ${image.width}w`].join(", ");
}

/**
 * Each of the post's headings' rendered level, in document order. Levels are normalised, not shifted:
 * the highest level the post uses becomes h2 (the post title is the page's h1), the next one it uses
 * h3, and so on; a heading never goes more than one level deeper than the one before it (so `#` then
 * `###` reads h2, h3). A post written with `##`/`###` and one written with `#`/`##` render alike.
 */
export function headingLevels(written: readonly number[]): number[] {
  const used = [...new Set(written)].sort((a, b) => a - b);
  let previous = 1;
  return written.map((level) => {
    const rendered = Math.min(2 + used.indexOf(level), previous + 1, 6);
    previous = rendered;
    return rendered;
  });
}

/** The post's own headings (not the footnotes' label the renderer adds), in document order. */
function contentHeadings(tree: HastRoot): { node: Element; level: number }[] {
  const found: { node: Element; level: number }[] = [];
  visit(tree, "element", (node) => {
    const heading = HEADING.exec(node.tagName);
    if (heading && node.properties.id !== "footnote-label") found.push({ node, level: Number(heading[1]) });
  });
  return found;
}

/** Links, images, headings and code: everything the sanitizer will then check against its allow-list. */
function rehypeContent(ctx: TransformContext) {
  return (tree: HastRoot) => {
    const headings = contentHeadings(tree);
    const levels = headingLevels(headings.map((h) => h.level));
    headings.forEach(({ node }, i) => {
      node.tagName = `h${levels[i] ?? 2}`;
    });
    visit(tree, "element", (node, index, parent) => {
      if (!parent || index === undefined) return;
      if (node.tagName === "br") {
        // The newline after <br> would reach the plain text as an indent on the next line.
        const next = parent.children[index + 1];
        if (next?.type === "text" && next.value === "\n") parent.children.splice(index + 1, 1);
        else if (next?.type === "text" && next.value.startsWith("\n")) next.value = next.value.slice(1);
        return;
      }
      if (HEADING.test(node.tagName)) return;
      if (node.tagName === "a") {
        const link = classifyLink(stringProperty(node, "href") ?? "", ctx.siteUrl);
        if (!link) {
          parent.children.splice(index, 1, ...node.children);
          return [SKIP, index];
        }
        node.properties.href = link.href;
        if (link.kind === "external") node.properties.rel = ["noopener", "noreferrer", "nofollow"];
        return;
      }
      if (node.tagName === "img") {
        const src = safeImageSrc(stringProperty(node, "src") ?? "", ctx.siteUrl);
        const known = src ? ctx.images.get(sitePath(src, ctx.siteUrl)) : undefined;
        const alt = shownAlt(known?.alt, stringProperty(node, "alt"));
        if (!src) {
          // An unusable source leaves its description, so the sentence around it still reads.
          parent.children.splice(index, 1, ...(alt ? [{ type: "text" as const, value: alt }] : []));
          return [SKIP, index];
        }
        node.properties = {
          src,
          alt,
          ...(node.properties.title ? { title: node.properties.title } : {}),
          loading: "lazy",
          decoding: "async",
        };
        if (known) {
          node.properties.width = known.width;
          node.properties.height = known.height;
          const srcSet = uploadSrcSet(src, known);
          if (srcSet) {
            node.properties.srcSet = srcSet;
            node.properties.sizes = ctx.imageSizes;
          }
        }
        return;
      }
      if (node.tagName === "pre") {
        const code = node.children[0];
        if (node.children.length !== 1 || code?.type !== "element" || code.tagName !== "code") return;
        const fence = fenceLanguage(code);
        const language = fence ? ctx.code.resolveLanguage(fence) : null;
        // mdast-util-to-hast ends every code block with a newline; it is not a line of the code.
        const source = toString(code).replace(/\n$/, "");
        parent.children[index] = language ? ctx.code.highlight(source, language) : plainCodeBlock(source);
        return SKIP;
      }
      if (node.tagName === "th" || node.tagName === "td") {
        const align = stringProperty(node, "align");
        node.properties = align && ALIGN.has(align) ? { className: [`md-align-${align}`] } : {};
        return;
      }
      if (node.tagName === "input" && node.properties.type === "checkbox") {
        node.properties.ariaLabel = node.properties.checked ? "Done" : "Not done";
      }
    });
  };
}

/** Heading ids like GitHub's (unique within the post, `-1`, `-2` for repeats), avoiding the page's own ids. */
function addHeadingIds(tree: HastRoot): MarkdownHeading[] {
  const slugger = new GithubSlugger();
  for (const id of RESERVED_IDS) slugger.slug(id);
  const headings: MarkdownHeading[] = [];
  visit(tree, "element", (node) => {
    const heading = HEADING.exec(node.tagName);
    if (!heading) return;
    // Footnotes' "Footnotes" label already has its id.
    if (node.properties.dataFootnotes !== undefined || node.properties.id === "footnote-label") return;
    const text = toString(node).trim();
    const id = slugger.slug(text) || slugger.slug("section");
    node.properties.id = id;
    headings.push({ depth: Number(heading[1]), id, text });
    return SKIP;
  });
  return headings;
}

let highlighterReady: Promise<CodeHighlighter> | null = null;

/** What a post without a fenced block naming a language needs: every block plain, no highlighter. */
const PLAIN_CODE: CodeHighlighter = {
  loadLanguages: () => Promise.resolve(),
  resolveLanguage: () => null,
  highlight: (code) => plainCodeBlock(code),
};

/**
 * The highlighter only when some fence names a language, with the grammars those fences name: the
 * highlighter costs ~20 MB resident and each grammar up to ~15 MB once compiled (docs/decisions/0040-server-memory.md),
 * which a process that renders no code (most of them) never pays.
 */
async function highlighterFor(tree: MdastRoot): Promise<CodeHighlighter> {
  const fences = new Set<string>();
  visit(tree, "code", (node) => {
    if (node.lang) fences.add(node.lang);
  });
  if (fences.size === 0) return PLAIN_CODE;
  highlighterReady ??= loadCodeHighlighter().catch((error: unknown) => {
    highlighterReady = null;
    throw error;
  });
  const code = await highlighterReady;
  await code.loadLanguages([...fences]);
  return code;
}

/**
 * Markdown (CommonMark + GFM, a single newline kept as a line break) → safe HTML, its visible text
 * and its headings. Runs on the server only; call it once per save and store the result. Parsed off
 * the event loop with a time limit (markdown-parse.server.ts): throws MarkdownTooComplexError (422).
 */
export async function renderMarkdown(source: string, options: RenderMarkdownOptions): Promise<RenderedMarkdown> {
  return renderMarkdownTree(await parseMarkdown(source), options);
}

/** renderMarkdown for a tree parseMarkdown gave (callers that also read the tree parse once). */
export async function renderMarkdownTree(parsed: MdastRoot, options: RenderMarkdownOptions): Promise<RenderedMarkdown> {
  const ctx: TransformContext = {
    siteUrl: new URL(options.siteUrl),
    images: options.images ?? new Map(),
    imageSizes: options.imageSizes ?? DEFAULT_IMAGE_SIZES,
    code: PLAIN_CODE,
  };
  // The tree comes from parseMarkdown (the same parser and GFM extensions); these run its transforms.
  const processor = unified()
    .use(remarkGfm)
    .use(remarkRawHtmlAsText)
    .use(remarkBreaks)
    // No allowDangerousHtml: raw HTML is already text here, and nothing else may add it.
    .use(remarkRehype)
    .use(rehypeContent, ctx)
    .use(rehypeSanitize, MARKDOWN_SANITIZE_SCHEMA)
    .use(rehypeStringify);
  ctx.code = await highlighterFor(parsed);
  const tree = await processor.run(parsed);
  const headings = addHeadingIds(tree);
  const text = toText(tree)
    .replace(/[ \t]+$/gm, "")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  return { html: processor.stringify(tree), text, headings };
}

/** Rendered previews by content hash, bounded to about 8 MB of HTML and text. */
const cache = new LruCache<RenderedMarkdown>({
  maxEntries: 500,
  maxSize: 8 * 1024 * 1024,
  sizeOf: (r) => r.html.length + r.text.length,
});

function cacheKey(source: string, options: RenderMarkdownOptions): string {
  const hash = createHash("sha256");
  hash
    .update(source)
    .update("\0")
    .update(options.siteUrl)
    .update("\0")
    .update(options.imageSizes ?? "");
  for (const [url, image] of [...(options.images ?? new Map<string, KnownImage>())].sort(([a], [b]) => a.localeCompare(b))) {
    hash
      .update("\0")
      .update(url)
      .update(JSON.stringify([image.width, image.height, image.variants, image.alt ?? ""]));
  }
  return hash.digest("base64url");
}

/** renderMarkdownTree behind an in-memory LRU keyed by a hash of the content and options (the editor's preview path). */
export async function renderMarkdownCached(source: string, options: RenderMarkdownOptions, parsed?: MdastRoot): Promise<RenderedMarkdown> {
  const key = cacheKey(source, options);
  const hit = cache.get(key);
  if (hit) return hit;
  const rendered = await renderMarkdownTree(parsed ?? (await parseMarkdown(source)), options);
  cache.set(key, rendered);
  return rendered;
}

export function clearMarkdownCache(): void {
  cache.clear();
}

/** The site paths of our uploads a post (its parsed tree) shows, for the caller to look up before rendering. */
export function uploadImageUrlsIn(tree: MdastRoot, siteUrl: string): string[] {
  const site = new URL(siteUrl);
  const urls = new Set<string>();
  visit(tree, (node) => {
    if (node.type !== "image" && node.type !== "definition") return;
    const src = safeImageSrc(node.url, site);
    if (src && uploadKeyOf(src) !== null) urls.add(src);
  });
  return [...urls];
}
