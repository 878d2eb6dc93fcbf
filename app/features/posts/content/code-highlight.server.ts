import type { Element, ElementContent } from "hast";
import type { HighlighterCore } from "shiki/core";

/**
 * Server-side syntax highlighting with shiki. The output carries classes only, never `style`
 * attributes, so it passes the sanitizer's allow-list and a CSP without 'unsafe-inline' for styles;
 * the colours live in code-highlight.css, generated from the theme (scripts/generate-code-highlight-css.ts).
 */

/** The bounded set of grammars loaded (with the languages they embed); any other fence renders as plain code. */
export const HIGHLIGHT_LANGUAGES = [
  "bash",
  "c",
  "cpp",
  "csharp",
  "css",
  "diff",
  "docker",
  "go",
  "html",
  "java",
  "javascript",
  "json",
  "jsx",
  "markdown",
  "php",
  "python",
  "ruby",
  "rust",
  "sql",
  "toml",
  "tsx",
  "typescript",
  "xml",
  "yaml",
] as const;

/** Fence names people type that the grammars do not declare as aliases themselves. */
const EXTRA_ALIASES: Record<string, (typeof HIGHLIGHT_LANGUAGES)[number]> = {
  shell: "bash",
  sh: "bash",
  zsh: "bash",
  console: "bash",
  golang: "go",
  dockerfile: "docker",
  svg: "xml",
  "c#": "csharp",
};

/** GitHub's high-contrast light theme: every token colour is at least 4.7:1 on the block background (tested). */
export const HIGHLIGHT_THEME = "github-light-high-contrast";
export const CODE_BACKGROUND = "#f6f8fa";
const MIN_CONTRAST = 4.5;
/** Longer code is shown plain: tokenizing is the only super-linear step of rendering. */
const MAX_HIGHLIGHT_CHARS = 50_000;

// vscode-textmate's FontStyle bit flags.
const ITALIC = 1;
const BOLD = 2;
const UNDERLINE = 4;
const STRIKETHROUGH = 8;

export interface CodePalette {
  foreground: string;
  background: string;
  /** Theme colour (lower-case #rrggbb) → class; colours too faint for the background get none. */
  classes: ReadonlyMap<string, string>;
}

interface Highlighter {
  core: HighlighterCore;
  palette: CodePalette;
  /** Grammar bundles loaded or loading, with the names each embeds lazily. */
  grammars: Map<HighlightLanguage, Promise<string[]>>;
  /** Fence name → the grammar bundle that highlights it. */
  names: ReadonlyMap<string, HighlightLanguage>;
}

let highlighter: Promise<Highlighter> | null = null;

function relativeLuminance(hex: string): number {
  const channel = (offset: number) => {
    const v = parseInt(hex.slice(offset, offset + 2), 16) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** WCAG contrast ratio of two #rrggbb colours. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x);
  return ((hi ?? 0) + 0.05) / ((lo ?? 0) + 0.05);
}

/** #rgb, #rrggbb or #rrggbbaa (opaque only) → #rrggbb; null for anything else. */
function normalizeColor(value: string | undefined): string | null {
  if (!value) return null;
  const v = value.toLowerCase();
  if (/^#[0-9a-f]{3}$/.test(v)) return `#${[...v.slice(1)].map((c) => c + c).join("")}`;
  if (/^#[0-9a-f]{6}$/.test(v)) return v;
  if (/^#[0-9a-f]{6}ff$/.test(v)) return v.slice(0, 7);
  return null;
}

/**
 * Fence names of the languages that come only inside another grammar's bundle (loaded with it as an
 * embedded language), and that bundle: they were accepted when every grammar was loaded at once, so
 * they still are. The table is checked against shiki's own bundles by code-highlight.server.test.ts.
 */
const EMBEDDED_LANGUAGES: Record<string, HighlightLanguage> = {
  "cpp-macro": "cpp",
  glsl: "cpp",
  regexp: "cpp",
  regex: "cpp",
  graphql: "ruby",
  gql: "ruby",
  haml: "ruby",
  lua: "ruby",
};

export type HighlightLanguage = (typeof HIGHLIGHT_LANGUAGES)[number];
type LanguageInfo = { id: string; aliases?: string[] };

/** Every fence name a grammar answers to (its id and aliases, and the languages it embeds) → the grammar to load. */
function grammarsByName(info: readonly LanguageInfo[]): Map<string, HighlightLanguage> {
  const names = new Map<string, HighlightLanguage>(Object.entries(EMBEDDED_LANGUAGES));
  for (const lang of HIGHLIGHT_LANGUAGES) {
    const entry = info.find((i) => i.id === lang || (i.aliases ?? []).includes(lang));
    for (const name of entry ? [entry.id, ...(entry.aliases ?? [])] : [lang]) names.set(name, lang);
  }
  return names;
}

async function createHighlighter(): Promise<Highlighter> {
  // shiki itself is loaded here too, not with the module: most processes never highlight anything.
  // No grammar yet: each is loaded when a post first needs it (loadGrammars).
  const [{ createHighlighterCore }, { createOnigurumaEngine }, { bundledLanguagesInfo }, { bundledThemes }] = await Promise.all([
    import("shiki/core"),
    import("shiki/engine/oniguruma"),
    import("shiki/langs"),
    import("shiki/themes"),
  ]);
  const core = await createHighlighterCore({
    themes: [bundledThemes[HIGHLIGHT_THEME]],
    langs: [],
    engine: createOnigurumaEngine(import("shiki/wasm")),
  });
  const theme = core.getTheme(HIGHLIGHT_THEME);
  const foreground = normalizeColor(theme.fg) ?? "#000000";
  const classes = new Map<string, string>();
  for (const rule of theme.settings) {
    const color = normalizeColor(rule.settings.foreground);
    if (color && !classes.has(color) && contrastRatio(color, CODE_BACKGROUND) >= MIN_CONTRAST) classes.set(color, `sk-${color.slice(1)}`);
  }
  return {
    core,
    palette: { foreground, background: CODE_BACKGROUND, classes },
    grammars: new Map(),
    names: grammarsByName(bundledLanguagesInfo),
  };
}

/** Loads one grammar bundle (with the languages it embeds) once per process; resolves to the names it embeds lazily. */
function loadBundle(highlighter: Highlighter, lang: HighlightLanguage): Promise<string[]> {
  let loading = highlighter.grammars.get(lang);
  if (!loading) {
    loading = (async () => {
      const { bundledLanguages } = await import("shiki/langs");
      const { default: registrations } = await bundledLanguages[lang]();
      await highlighter.core.loadLanguage(...registrations);
      return registrations.flatMap((r) => r.embeddedLangsLazy ?? []);
    })();
    highlighter.grammars.set(lang, loading);
    loading.catch(() => highlighter.grammars.delete(lang));
  }
  return loading;
}

/**
 * Loads these grammars and the ones they embed lazily (markdown's fenced blocks, haml's filters) that
 * are in the set too: with every grammar loaded at once those were highlighted, so they still are.
 */
async function loadGrammars(highlighter: Highlighter, langs: Iterable<HighlightLanguage>): Promise<void> {
  const seen = new Set<HighlightLanguage>();
  let next = [...langs];
  while (next.length > 0) {
    for (const lang of next) seen.add(lang);
    const lazy = (await Promise.all(next.map((lang) => loadBundle(highlighter, lang)))).flat();
    next = [...new Set(lazy.flatMap((name) => highlighter.names.get(name) ?? []))].filter((lang) => !seen.has(lang));
  }
}

/** The one highlighter of the process, created on first use; a failed start is retried next time. */
function getHighlighter(): Promise<Highlighter> {
  if (!highlighter) {
    highlighter = createHighlighter();
    highlighter.catch(() => {
      highlighter = null;
    });
  }
  return highlighter;
}

/** Prepares the highlighter before the first request needs it (at server start, off the request path). */
export async function warmUpHighlighter(options: { compileGrammars?: boolean } = {}): Promise<void> {
  const loaded = await getHighlighter();
  // The first use of a grammar compiles its rules (hundreds of ms for TypeScript); doing it here keeps that off a save.
  if (options.compileGrammars) {
    await loadGrammars(loaded, HIGHLIGHT_LANGUAGES);
    for (const lang of HIGHLIGHT_LANGUAGES) loaded.core.codeToTokens("x", { lang, theme: HIGHLIGHT_THEME });
  }
}

export interface CodeHighlighter {
  /** Loads the grammars these fence info words need (each once per process); call before resolveLanguage. */
  loadLanguages(fences: readonly string[]): Promise<void>;
  /** The loaded grammar for a fence's info word, or null when it is not one of HIGHLIGHT_LANGUAGES (or not loaded). */
  resolveLanguage(fence: string): string | null;
  /** `<pre class="shiki"><code>` with one `span.line` per line and a class per coloured token. */
  highlight(code: string, language: string): Element;
}

/** Per call of a grammar, not per highlight: a block taking longer is cut short rather than holding the server. */
const TOKENIZE_TIME_LIMIT_MS = 1_000;

const fenceName = (fence: string): string => {
  const name = fence.toLowerCase();
  return EXTRA_ALIASES[name] ?? name;
};

export async function loadCodeHighlighter(): Promise<CodeHighlighter> {
  const loaded = await getHighlighter();
  const { core, palette, names } = loaded;
  const compiled = new Set<string>();
  return {
    async loadLanguages(fences) {
      await loadGrammars(
        loaded,
        fences.flatMap((fence) => names.get(fenceName(fence)) ?? []),
      );
    },
    resolveLanguage(fence) {
      const lang = fenceName(fence);
      return names.has(lang) && core.getLoadedLanguages().includes(lang) ? lang : null;
    },
    highlight(code, language) {
      if (code.length > MAX_HIGHLIGHT_CHARS) return plainCodeBlock(code);
      if (!compiled.has(language)) {
        // A grammar's first use compiles its patterns (up to ~0.5 s); without this the time limit
        // would cut the first block of each language short and that weaker output would be stored.
        core.codeToTokens("x", { lang: language, theme: HIGHLIGHT_THEME, tokenizeTimeLimit: 0 });
        compiled.add(language);
      }
      const { tokens } = core.codeToTokens(code, {
        lang: language,
        theme: HIGHLIGHT_THEME,
        tokenizeMaxLineLength: 2_000,
        tokenizeTimeLimit: TOKENIZE_TIME_LIMIT_MS,
      });
      const lines: ElementContent[] = [];
      tokens.forEach((line, i) => {
        if (i > 0) lines.push({ type: "text", value: "\n" });
        const spans: ElementContent[] = line.map((token) => {
          const className = tokenClasses(token.color, token.fontStyle, palette);
          const text: ElementContent = { type: "text", value: token.content };
          return className.length > 0 ? { type: "element", tagName: "span", properties: { className }, children: [text] } : text;
        });
        lines.push({ type: "element", tagName: "span", properties: { className: ["line"] }, children: spans });
      });
      return codeBlock(lines, language);
    },
  };
}

function tokenClasses(color: string | undefined, fontStyle: number | undefined, palette: CodePalette): string[] {
  const classes: string[] = [];
  const normalized = normalizeColor(color);
  const colorClass = normalized && normalized !== palette.foreground ? palette.classes.get(normalized) : undefined;
  if (colorClass) classes.push(colorClass);
  const style = fontStyle ?? 0;
  if (style > 0) {
    if (style & ITALIC) classes.push("sk-i");
    if (style & BOLD) classes.push("sk-b");
    if (style & UNDERLINE) classes.push("sk-u");
    if (style & STRIKETHROUGH) classes.push("sk-s");
  }
  return classes;
}

function codeBlock(children: ElementContent[], language: string | null): Element {
  return {
    type: "element",
    tagName: "pre",
    // Focusable so keyboard users can scroll a wide block (axe: scrollable-region-focusable).
    properties: { className: ["shiki"], tabIndex: 0, ...(language ? { dataLanguage: language } : {}) },
    children: [{ type: "element", tagName: "code", properties: {}, children }],
  };
}

export function plainCodeBlock(code: string): Element {
  return codeBlock([{ type: "text", value: code }], null);
}

/** The stylesheet for highlighted blocks: one rule per palette colour, plus the font styles. */
export async function codeHighlightCss(): Promise<string> {
  const { palette } = await getHighlighter();
  const rules = [
    `.markdown-body pre.shiki { color: ${palette.foreground}; background-color: ${palette.background}; }`,
    ...[...palette.classes]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([color, className]) => `.markdown-body .${className} { color: ${color}; }`),
    ".markdown-body .sk-i { font-style: italic; }",
    ".markdown-body .sk-b { font-weight: 700; }",
    ".markdown-body .sk-u { text-decoration: underline; }",
    ".markdown-body .sk-s { text-decoration: line-through; }",
  ];
  return `/* Generated by scripts/generate-code-highlight-css.ts from shiki's ${HIGHLIGHT_THEME} theme; do not edit. */\n${rules.join("\n")}\n`;
}
