/**
 * How deeply JSON text nests its arrays and objects, measured as it streams by (brackets inside
 * strings do not count). Readers of files a person hands us (backups, exports) refuse text nested
 * deeper than they need before a recursive step (a parser, a schema, PostgreSQL's json input) meets it.
 */
export interface JsonDepthMeter {
  /** Feeds the next piece: UTF-8 bytes or text (the characters that matter are ASCII either way). */
  update(piece: Uint8Array | string): void;
  /** The deepest nesting seen so far. */
  readonly max: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPENERS = new Set([0x5b, 0x7b]);
const CLOSERS = new Set([0x5d, 0x7d]);

export function jsonDepthMeter(): JsonDepthMeter {
  let depth = 0;
  let max = 0;
  let inString = false;
  let escaped = false;
  const step = (code: number) => {
    if (inString) {
      if (escaped) escaped = false;
      else if (code === BACKSLASH) escaped = true;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) inString = true;
    else if (OPENERS.has(code)) max = Math.max(max, ++depth);
    else if (CLOSERS.has(code)) depth = Math.max(0, depth - 1);
  };
  return {
    update(piece) {
      if (typeof piece === "string") for (let i = 0; i < piece.length; i++) step(piece.charCodeAt(i));
      else for (const byte of piece) step(byte);
    },
    get max() {
      return max;
    },
  };
}

/** The deepest nesting of arrays and objects in a JSON text. */
export function jsonDepth(text: string): number {
  const meter = jsonDepthMeter();
  meter.update(text);
  return meter.max;
}
