import { Fragment } from "react";

const URL_IN_TEXT = /\bhttps?:\/\/[^\s<>"']+/gi;
const TRAILING_PUNCTUATION = /[.,;:!?)\]}]+$/;

/** Splits text into plain parts and http(s) links; nothing else (javascript:, data:) ever becomes a link. */
export function linkifyParts(text: string): ({ kind: "text"; value: string } | { kind: "link"; href: string; value: string })[] {
  const parts: ({ kind: "text"; value: string } | { kind: "link"; href: string; value: string })[] = [];
  let last = 0;
  for (const match of text.matchAll(URL_IN_TEXT)) {
    const start = match.index;
    let raw = match[0];
    const trailing = TRAILING_PUNCTUATION.exec(raw)?.[0] ?? "";
    raw = raw.slice(0, raw.length - trailing.length);
    let href: string | null = null;
    try {
      const url = new URL(raw);
      if (url.protocol === "http:" || url.protocol === "https:") href = url.toString();
    } catch {
      href = null;
    }
    if (!href) continue;
    if (start > last) parts.push({ kind: "text", value: text.slice(last, start) });
    parts.push({ kind: "link", href, value: raw });
    last = start + raw.length;
  }
  if (last < text.length) parts.push({ kind: "text", value: text.slice(last) });
  return parts;
}

/** Post content with its whitespace preserved and bare URLs as safe external links. */
export function PostContent({ content }: { content: string }) {
  return (
    <div className="whitespace-pre-wrap break-words text-lg leading-relaxed" data-testid="post-content">
      {linkifyParts(content).map((part, i) =>
        part.kind === "link" ? (
          <a
            key={i}
            href={part.href}
            rel="noopener noreferrer nofollow"
            target="_blank"
            className="text-primary underline hover:no-underline"
          >
            {part.value}
          </a>
        ) : (
          <Fragment key={i}>{part.value}</Fragment>
        ),
      )}
    </div>
  );
}
