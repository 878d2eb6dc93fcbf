import type { Element, Root } from "hast";
import { fromHtml } from "hast-util-from-html";
import { toString } from "hast-util-to-string";
import rehypeStringify from "rehype-stringify";
import { unified } from "unified";
import { SKIP, visit } from "unist-util-visit";

/** Colours of the email's body text, code and rules; the dark-mode stylesheet overrides them. */
export const EMAIL_COLOURS = {
  text: "#18181b",
  muted: "#52525b",
  background: "#f4f4f5",
  card: "#ffffff",
  codeBackground: "#f4f4f5",
  rule: "#e4e4e7",
} as const;

const MONO = "ui-monospace,SFMono-Regular,Menlo,Consolas,monospace";

const STYLES: Record<string, string> = {
  p: "margin:0 0 16px;line-height:1.6",
  h1: "font-size:24px;line-height:1.3;margin:24px 0 12px",
  h2: "font-size:20px;line-height:1.3;margin:24px 0 12px",
  h3: "font-size:18px;line-height:1.3;margin:20px 0 8px",
  h4: "font-size:16px;margin:16px 0 8px",
  h5: "font-size:16px;margin:16px 0 8px",
  h6: "font-size:16px;margin:16px 0 8px",
  ul: "margin:0 0 16px;padding-left:24px;line-height:1.6",
  ol: "margin:0 0 16px;padding-left:24px;line-height:1.6",
  blockquote: `margin:0 0 16px;padding:0 0 0 12px;border-left:4px solid ${EMAIL_COLOURS.rule};color:${EMAIL_COLOURS.muted}`,
  img: "display:block;max-width:100%;height:auto;border:0;margin:0 0 16px",
  table: "border-collapse:collapse;margin:0 0 16px;width:100%",
  th: `border:1px solid ${EMAIL_COLOURS.rule};padding:6px 8px;text-align:left`,
  td: `border:1px solid ${EMAIL_COLOURS.rule};padding:6px 8px`,
  hr: `border:0;border-top:1px solid ${EMAIL_COLOURS.rule};margin:24px 0`,
};

/** Elements an email client cannot show or must not run: dropped with their content. */
const DROPPED = new Set([
  "script",
  "style",
  "iframe",
  "object",
  "embed",
  "form",
  "input",
  "button",
  "select",
  "textarea",
  "svg",
  "video",
  "audio",
]);

const absolute = (url: string, base: string): string | null => {
  try {
    const parsed = new URL(url, base);
    return parsed.protocol === "http:" || parsed.protocol === "https:" || parsed.protocol === "mailto:" ? parsed.href : null;
  } catch {
    return null;
  }
};

/**
 * A post's rendered HTML made fit for email clients: every style inline (clients drop stylesheets
 * and classes), links and images absolute, images fluid (no srcset, whose relative sizes clients
 * resolve against nothing), code blocks as plain pre-wrapped monospace text (the site's highlighting
 * lives in its stylesheet, and long lines must not widen the mail), task-list checkboxes, scripts
 * and embeds dropped.
 */
export function emailSafeHtml(html: string, baseUrl: string, accent: string): string {
  const tree: Root = fromHtml(html, { fragment: true });
  visit(tree, "element", (node: Element, index, parent) => {
    if (DROPPED.has(node.tagName) && parent && index !== undefined) {
      parent.children.splice(index, 1);
      return [SKIP, index];
    }
    if (node.tagName === "pre") {
      node.properties = {
        style: `margin:0 0 16px;padding:12px;border-radius:6px;background:${EMAIL_COLOURS.codeBackground};color:${EMAIL_COLOURS.text};font-family:${MONO};font-size:13px;line-height:1.5;white-space:pre-wrap;word-break:break-word`,
        className: ["email-code"],
      };
      node.children = [{ type: "text", value: toString(node).replace(/\n$/, "") }];
      return SKIP;
    }
    const props: Element["properties"] = {};
    if (node.tagName === "a") {
      const href = typeof node.properties.href === "string" ? absolute(node.properties.href, baseUrl) : null;
      if (href) props.href = href;
      props.style = `color:${accent};text-decoration:underline`;
    } else if (node.tagName === "img") {
      const src = typeof node.properties.src === "string" ? absolute(node.properties.src, baseUrl) : null;
      if (!src && parent && index !== undefined) {
        parent.children.splice(index, 1);
        return [SKIP, index];
      }
      if (src) props.src = src;
      props.alt = typeof node.properties.alt === "string" ? node.properties.alt : "";
      if (typeof node.properties.width === "number" || typeof node.properties.width === "string") props.width = node.properties.width;
      props.style = STYLES.img;
    } else if (node.tagName === "code") {
      props.style = `font-family:${MONO};font-size:0.9em;background:${EMAIL_COLOURS.codeBackground};padding:1px 4px;border-radius:4px`;
      props.className = ["email-code"];
    } else if (node.tagName === "th" || node.tagName === "td") {
      const align = node.properties.align ?? node.properties.style;
      props.style =
        STYLES[node.tagName] +
        (typeof align === "string" && /center|right/.test(align) ? `;text-align:${/center/.test(align) ? "center" : "right"}` : "");
    } else if (STYLES[node.tagName]) {
      props.style = STYLES[node.tagName];
      if (node.tagName === "ol" && node.properties.start !== undefined) props.start = node.properties.start;
    } else if (node.tagName === "picture") {
      // <picture> holds <source>s clients ignore: keep its <img>.
      const img = node.children.find((c): c is Element => c.type === "element" && c.tagName === "img");
      if (parent && index !== undefined) {
        parent.children.splice(index, 1, ...(img ? [img] : []));
        return index;
      }
    } else if (node.tagName === "source" && parent && index !== undefined) {
      parent.children.splice(index, 1);
      return [SKIP, index];
    }
    node.properties = props;
    return undefined;
  });
  return unified().use(rehypeStringify).stringify(tree);
}
