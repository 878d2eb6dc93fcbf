/** A textarea's text and selection, before or after an edit. */
export interface TextState {
  value: string;
  start: number;
  end: number;
}

export type FormatAction = "bold" | "italic" | "heading" | "link" | "bulleted" | "numbered" | "quote" | "code";

/** The toolbar, in order: each button's accessible name (the exact words) and its action. */
export const TOOLBAR_ACTIONS: readonly { action: FormatAction; label: string; shortcut?: string }[] = [
  { action: "bold", label: "Bold", shortcut: "b" },
  { action: "italic", label: "Italic", shortcut: "i" },
  { action: "heading", label: "Heading" },
  { action: "link", label: "Link", shortcut: "k" },
  { action: "bulleted", label: "Bulleted list" },
  { action: "numbered", label: "Numbered list" },
  { action: "quote", label: "Quote" },
  { action: "code", label: "Code" },
];

/** Puts `before`/`after` around the selection; with nothing selected, a placeholder is inserted and selected. */
function wrap(state: TextState, before: string, after: string, placeholder: string): TextState {
  const selected = state.value.slice(state.start, state.end);
  const inner = selected || placeholder;
  const value = state.value.slice(0, state.start) + before + inner + after + state.value.slice(state.end);
  const start = state.start + before.length;
  return { value, start, end: start + inner.length };
}

/** Prefixes every line the selection touches (at least the cursor's line). */
function prefixLines(state: TextState, prefixOf: (index: number) => string): TextState {
  const lineStart = state.value.lastIndexOf("\n", state.start - 1) + 1;
  const nextBreak = state.value.indexOf("\n", Math.max(state.end - (state.end > state.start ? 1 : 0), state.start));
  const lineEnd = nextBreak === -1 ? state.value.length : nextBreak;
  const lines = state.value.slice(lineStart, lineEnd).split("\n");
  const block = lines.map((line, i) => prefixOf(i) + line).join("\n");
  const value = state.value.slice(0, lineStart) + block + state.value.slice(lineEnd);
  const firstPrefix = prefixOf(0).length;
  return { value, start: state.start + firstPrefix, end: state.end + (block.length - (lineEnd - lineStart)) };
}

/** The Markdown a toolbar button or shortcut inserts at the cursor or around the selection. */
export function applyFormat(state: TextState, action: FormatAction): TextState {
  switch (action) {
    case "bold":
      return wrap(state, "**", "**", "bold text");
    case "italic":
      return wrap(state, "_", "_", "italic text");
    case "code": {
      const selected = state.value.slice(state.start, state.end);
      return selected.includes("\n") || selected === "" ? wrap(state, "\n```\n", "\n```\n", "code") : wrap(state, "`", "`", "code");
    }
    case "link": {
      const selected = state.value.slice(state.start, state.end);
      const linked = wrap(state, "[", "](https://)", "link text");
      // With text chosen, the address is what is left to type: select it.
      if (!selected) return linked;
      const urlStart = linked.end + 2;
      return { value: linked.value, start: urlStart, end: urlStart + "https://".length };
    }
    case "heading":
      return prefixLines(state, () => "## ");
    case "bulleted":
      return prefixLines(state, () => "- ");
    case "numbered":
      return prefixLines(state, (i) => `${i + 1}. `);
    case "quote":
      return prefixLines(state, () => "> ");
  }
}

/** `![alt](url)` at the cursor (replacing a selection), on its own line; the cursor lands after it. */
export function insertImage(state: TextState, image: { url: string; alt: string }): TextState {
  const before = state.value.slice(0, state.start);
  const after = state.value.slice(state.end);
  const alt = image.alt.replace(/[[\]\\]/g, (c) => `\\${c}`);
  const lead = before === "" || before.endsWith("\n") ? "" : "\n";
  const trail = after === "" || after.startsWith("\n") ? "" : "\n";
  const markdown = `${lead}![${alt}](${image.url})${trail}`;
  const at = before.length + markdown.length - trail.length;
  return { value: before + markdown + after, start: at, end: at };
}

/** Ctrl/Cmd + B, I or K → the action; anything else null. */
export function shortcutAction(event: {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
}): FormatAction | null {
  if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return null;
  const key = event.key.toLowerCase();
  return TOOLBAR_ACTIONS.find((a) => a.shortcut === key)?.action ?? null;
}
