import type { Element, Root as HastRoot } from "hast";
import type { Root as MdastRoot } from "mdast";
import rehypeSanitize, { type Options as SanitizeSchema } from "rehype-sanitize";
import rehypeStringify from "rehype-stringify";
import remarkBreaks from "remark-breaks";
import remarkGfm from "remark-gfm";
import remarkRehype from "remark-rehype";
import { unified } from "unified";
import { SKIP, visit } from "unist-util-visit";
import { classifyLink } from "~/features/posts/content/content-urls";
import { parseMarkdown } from "~/features/posts/content/markdown-parse.server";
import { MARKDOWN_SANITIZE_SCHEMA } from "~/features/posts/content/markdown-schema.server";

/**
 * The subset a comment may use: paragraphs, emphasis, links, code, quotes and lists. No images, no
 * headings, no tables (their text stays). The post renderer's rules otherwise: the same parser with its
 * time limit, the same link rules and protocols, and its allow-list narrowed to these elements.
 */
const COMMENT_TAGS = ["p", "br", "em", "strong", "del", "a", "code", "pre", "blockquote", "ul", "ol", "li"];

export const COMMENT_SANITIZE_SCHEMA: SanitizeSchema = {
  ...MARKDOWN_SANITIZE_SCHEMA,
  tagNames: COMMENT_TAGS,
  attributes: { a: ["href", ["rel", "nofollow", "ugc", "noopener", "noreferrer"]], ol: ["start"] },
  required: {},
  ancestors: { li: ["ol", "ul"] },
};

/** Raw HTML and images become their text; headings become paragraphs. */
function remarkCommentSubset() {
  return (tree: MdastRoot) => {
    visit(tree, (node, index, parent) => {
      if (!parent || index === undefined) return;
      if (node.type === "html") {
        parent.children.splice(index, 1, { type: "text", value: node.value });
        return [SKIP, index + 1];
      }
      if (node.type === "image" || node.type === "imageReference") {
        parent.children.splice(index, 1, { type: "text", value: node.alt ?? "" });
        return [SKIP, index + 1];
      }
      if (node.type === "heading") {
        parent.children.splice(index, 1, { type: "paragraph", children: node.children });
        return index;
      }
      return undefined;
    });
  };
}

/** Links the post renderer would refuse become their text; the rest open as user content, never followed. */
function rehypeCommentLinks(siteUrl: URL) {
  return (tree: HastRoot) => {
    visit(tree, "element", (node: Element, index, parent) => {
      if (!parent || index === undefined || node.tagName !== "a") return;
      const href = typeof node.properties.href === "string" ? node.properties.href : "";
      const link = classifyLink(href, siteUrl);
      if (!link) {
        parent.children.splice(index, 1, ...node.children);
        return [SKIP, index];
      }
      node.properties = {
        href: link.href,
        ...(link.kind === "internal" || link.kind === "fragment" ? {} : { rel: ["nofollow", "ugc", "noopener", "noreferrer"] }),
      };
      return undefined;
    });
  };
}

/** A comment's Markdown as safe HTML, rendered once when it is stored or edited. */
export async function renderCommentMarkdown(source: string, siteUrl: string): Promise<string> {
  const parsed = await parseMarkdown(source);
  const processor = unified()
    .use(remarkGfm)
    .use(remarkCommentSubset)
    .use(remarkBreaks)
    .use(remarkRehype)
    .use(rehypeCommentLinks, new URL(siteUrl))
    .use(rehypeSanitize, COMMENT_SANITIZE_SCHEMA)
    .use(rehypeStringify);
  const tree = await processor.run(parsed);
  return processor.stringify(tree);
}
