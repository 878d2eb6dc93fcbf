import { cn } from "~/lib/utils";

/**
 * A shipped image from public/images, published as {base}-{width}.avif/.webp (scripts/generate-placeholder-images.mjs).
 * Other URLs (uploads, external) render as a plain <img>. Width and height are always set to keep layout stable.
 */
export function ResponsiveImage({
  src,
  alt,
  width,
  height,
  widths,
  sizes,
  priority = false,
  className,
  onError,
}: {
  src: string;
  alt: string;
  width: number;
  height: number;
  /** Widths published for a shipped image; omit for any other URL. */
  widths?: readonly number[];
  sizes?: string;
  /** Above the fold: load eagerly with high priority. */
  priority?: boolean;
  className?: string;
  onError?: () => void;
}) {
  // What every rendering's <img> carries: the size keeps the layout stable, priority sets the loading.
  const common = {
    alt,
    width,
    height,
    loading: priority ? "eager" : "lazy",
    decoding: "async",
    fetchPriority: priority ? "high" : "auto",
    onError,
  } as const;
  if (!widths || widths.length === 0) return <img src={src} {...common} className={className} />;
  const set = (ext: string) => widths.map((w) => `${src}-${w}.${ext} ${w}w`).join(", ");
  const largest = widths[widths.length - 1];
  return (
    <picture>
      <source type="image/avif" srcSet={set("avif")} sizes={sizes} />
      <img src={`${src}-${largest}.webp`} srcSet={set("webp")} sizes={sizes} {...common} className={cn("h-auto", className)} />
    </picture>
  );
}

/** A URL stored in the database: a shipped image like /images/projects/x-800.webp gets its AVIF/WebP set. */
export function storedImage(url: string): { src: string; widths?: readonly number[] } {
  const match = /^(\/images\/(?:projects|posts)\/[a-z0-9-]+)-(\d+)\.webp$/.exec(url);
  if (!match?.[1]) return { src: url };
  return { src: match[1], widths: [400, 800] };
}
