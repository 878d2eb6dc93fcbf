import { useEffect, useState } from "react";

/** The server's rendering (and the first client render, so hydration matches): UTC, unambiguous. */
export function utcText(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

const VIEWER_FORMAT: Intl.DateTimeFormatOptions = { dateStyle: "medium", timeStyle: "short" };

/**
 * A time in the viewer's own time zone. The server knows no visitor's zone, so it renders UTC in a
 * <time datetime>; after hydration the browser rewrites the text in its zone (no hydration mismatch).
 */
export function LocalTime({ date, className }: { date: Date; className?: string }) {
  const iso = date.toISOString();
  const [local, setLocal] = useState<string | null>(null);
  useEffect(() => {
    setLocal(new Intl.DateTimeFormat(undefined, VIEWER_FORMAT).format(new Date(iso)));
  }, [iso]);
  return (
    // data-local marks the browser's rewrite (tests wait for it).
    <time dateTime={iso} title={utcText(date)} className={className} data-local={local === null ? undefined : ""}>
      {local ?? utcText(date)}
    </time>
  );
}
