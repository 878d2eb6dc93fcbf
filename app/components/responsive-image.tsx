import { cn } from "~/lib/utils";

/**
 * The one image element for an image with variants. A shipped image from public/images is published as
 * {base}-{width}.avif/.webp (scripts/generate-placeholder-images.mjs) and gets a <picture>; an upload
 * brings its variants as `srcSet` (uploads.server srcSetsFor); any other URL renders as a plain <img>.
 * Width and height are always set to keep layout stable.
 */
export function ResponsiveImage({
  src,
  alt,
  width,
  height,
  widths,
  srcSet,
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
  /** An upload's variants (`url 480w, …`); `sizes` applies only when there are some. */
  srcSet?: string;
  sizes?: string;
  /** Above the fold: load eagerly with high priority. */
  priority?: boolean;
  className?: string;
  onError?: () => void;
}) {
  const shipped = widths !== undefined && widths.length > 0 ? widths : undefined;
  const set = (ext: string) => (shipped ?? []).map((w) => `${src}-${w}.${ext} ${w}w`).join(", ");
  const image = (
    <img
      src={shipped ? `${src}-${shipped[shipped.length - 1]}.webp` : src}
      srcSet={shipped ? set("webp") : srcSet}
      sizes={shipped || srcSet ? sizes : undefined}
      alt={alt}
      width={width}
      height={height}
      loading={priority ? "eager" : "lazy"}
      decoding="async"
      fetchPriority={priority ? "high" : "auto"}
      onError={onError}
      className={shipped ? cn("h-auto", className) : className}
    />
  );
  if (!shipped) return image;
  return (
    <picture>
      <source type="image/avif" srcSet={set("avif")} sizes={sizes} />
      {image}
    </picture>
  );
}

/** A URL stored in the database: a shipped image like /images/projects/x-800.webp gets its AVIF/WebP set. */
export function storedImage(url: string): { src: string; widths?: readonly number[] } {
  const match = /^(\/images\/(?:projects|posts)\/[a-z0-9-]+)-(\d+)\.webp$/.exec(url);
  if (!match?.[1]) return { src: url };
  return { src: match[1], widths: [400, 800] };
}
