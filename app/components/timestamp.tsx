import { useEffect, useState } from "react";

/**
 * How a moment is shown. All but "local" read the same on the server and in the browser (UTC, no
 * time-zone dependent formatting during hydration):
 * - "local": the viewer's own zone once hydrated (UTC text from the server until then);
 * - "utc": `2026-01-31 14:05 UTC`; "utc-seconds": `2026-01-31 14:05:09 UTC`; "date": `2026-01-31`.
 */
export type TimestampFormat = "local" | "utc" | "utc-seconds" | "date";

function isoOf(value: Date | string): string {
  return typeof value === "string" ? value : value.toISOString();
}

/** `2026-01-31 14:05 UTC`: the server's rendering of a local time, and the title that keeps the exact moment. */
export function utcText(value: Date | string): string {
  return `${isoOf(value).slice(0, 16).replace("T", " ")} UTC`;
}

const FIXED: Record<Exclude<TimestampFormat, "local">, (iso: string) => string> = {
  utc: utcText,
  "utc-seconds": (iso) => `${iso.slice(0, 19).replace("T", " ")} UTC`,
  date: (iso) => iso.slice(0, 10),
};

const VIEWER_FORMAT: Intl.DateTimeFormatOptions = { dateStyle: "medium", timeStyle: "short" };

/** The one way a moment is shown: a <time datetime> whose text follows `format`. */
export function Timestamp({ iso: value, format, className }: { iso: Date | string; format: TimestampFormat; className?: string }) {
  const iso = isoOf(value);
  if (format === "local") return <LocalTime iso={iso} className={className} />;
  return (
    <time dateTime={iso} className={className}>
      {FIXED[format](iso)}
    </time>
  );
}

/**
 * A time in the viewer's own time zone. The server knows no visitor's zone, so it renders UTC; after
 * hydration the browser rewrites the text in its zone (no hydration mismatch).
 */
function LocalTime({ iso, className }: { iso: string; className?: string }) {
  const [local, setLocal] = useState<string | null>(null);
  useEffect(() => {
    setLocal(new Intl.DateTimeFormat(undefined, VIEWER_FORMAT).format(new Date(iso)));
  }, [iso]);
  return (
    // data-local marks the browser's rewrite (tests wait for it).
    <time dateTime={iso} title={utcText(iso)} className={className} data-local={local === null ? undefined : ""}>
      {local ?? utcText(iso)}
    </time>
  );
}
