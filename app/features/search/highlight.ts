/**
 * ts_headline wraps matching words in these markers (control characters no reader types). The
 * snippet is then split into plain text runs that React escapes, so a post's text can never become
 * markup: only our own <mark> elements come out of it.
 */
export const HIGHLIGHT_START = "\u0002";
export const HIGHLIGHT_STOP = "\u0003";

export interface HighlightSegment {
  text: string;
  mark: boolean;
}

export function highlightSegments(snippet: string): HighlightSegment[] {
  const segments: HighlightSegment[] = [];
  let mark = false;
  let text = "";
  const flush = () => {
    if (!text) return;
    const last = segments.at(-1);
    if (last && last.mark === mark) last.text += text;
    else segments.push({ text, mark });
    text = "";
  };
  for (const char of snippet) {
    if (char === HIGHLIGHT_START || char === HIGHLIGHT_STOP) {
      flush();
      mark = char === HIGHLIGHT_START;
    } else {
      text += char;
    }
  }
  flush();
  return segments;
}
