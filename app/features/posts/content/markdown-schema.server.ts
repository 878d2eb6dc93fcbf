import type { Options as SanitizeSchema } from "rehype-sanitize";

const FOOTNOTE_ID = /^user-content-fn(?:ref)?-[\w-]+$/;

/**
 * The last step of rendering: an explicit allow-list of every element and attribute the Markdown
 * renderer produces, and nothing else. Raw HTML never reaches it (it is turned into text earlier);
 * this is the second wall, so a bug in an earlier step cannot emit a script, a handler or a style.
 * Ids are not prefixed: every id is made by the renderer (heading slugs, footnotes), none by the author.
 */
export const MARKDOWN_SANITIZE_SCHEMA: SanitizeSchema = {
  tagNames: [
    "p",
    "br",
    "hr",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "em",
    "strong",
    "del",
    "a",
    "img",
    "ul",
    "ol",
    "li",
    "input",
    "blockquote",
    "pre",
    "code",
    "span",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
    "sup",
    "section",
  ],
  attributes: {
    a: [
      "href",
      "title",
      ["rel", "noopener", "noreferrer", "nofollow"],
      ["id", FOOTNOTE_ID],
      "dataFootnoteRef",
      "dataFootnoteBackref",
      ["ariaDescribedBy", "footnote-label"],
      "ariaLabel",
      ["className", "data-footnote-backref"],
    ],
    img: ["src", "alt", "title", "width", "height", ["loading", "lazy"], ["decoding", "async"], "srcSet", "sizes"],
    h2: ["id", ["className", "sr-only"]],
    h3: ["id"],
    h4: ["id"],
    h5: ["id"],
    h6: ["id"],
    ol: ["start", ["className", "contains-task-list"]],
    ul: [["className", "contains-task-list"]],
    li: [
      ["id", FOOTNOTE_ID],
      ["className", "task-list-item"],
    ],
    input: [["type", "checkbox"], "checked", ["disabled", true], "ariaLabel"],
    pre: [["className", "shiki"], ["tabIndex", 0], "dataLanguage"],
    span: [["className", "line", /^sk-(?:[0-9a-f]{6}|[ibus])$/]],
    th: [["className", /^md-align-(?:left|center|right)$/]],
    td: [["className", /^md-align-(?:left|center|right)$/]],
    section: ["dataFootnotes", ["className", "footnotes"]],
  },
  required: { input: { type: "checkbox", disabled: true } },
  ancestors: {
    li: ["ol", "ul"],
    input: ["li"],
    tbody: ["table"],
    thead: ["table"],
    tr: ["table"],
    th: ["table"],
    td: ["table"],
  },
  protocols: { href: ["http", "https", "mailto"], src: ["http", "https"] },
  clobber: [],
  clobberPrefix: "",
  strip: ["script", "style"],
};
