import type { TocEntry } from "./table-of-contents.server";

/** A post's sections as plain in-page links: rendered on the server, works without JavaScript. */
export function TableOfContents({ entries }: { entries: readonly TocEntry[] }) {
  if (entries.length === 0) return null;
  return (
    <nav aria-label="Table of contents" className="mt-8 rounded-lg border bg-card p-5">
      <p className="font-semibold">Contents</p>
      <ol className="mt-3 space-y-2 text-sm">
        {entries.map((entry) => (
          <li key={entry.id} className={entry.depth === 3 ? "pl-4" : undefined}>
            <a href={`#${entry.id}`} className="text-primary underline-offset-4 hover:underline">
              {entry.text}
            </a>
          </li>
        ))}
      </ol>
    </nav>
  );
}
