import { ResponsiveImage } from "~/components/responsive-image";
import { cn } from "~/lib/utils";

/**
 * The owner's portrait from the settings: an upload with its responsive variants (`srcSet`), any
 * other address as given, or the shipped silhouette when none is set.
 */
export function Portrait({
  url,
  srcSet,
  alt,
  sizes,
  priority = false,
  className,
}: {
  url: string;
  srcSet?: string;
  alt: string;
  sizes: string;
  priority?: boolean;
  className?: string;
}) {
  if (!url) {
    return (
      <ResponsiveImage
        src="/images/portrait/portrait"
        widths={[240, 480]}
        sizes={sizes}
        alt={alt}
        width={480}
        height={600}
        priority={priority}
        className={className}
      />
    );
  }
  return (
    <ResponsiveImage
      src={url}
      srcSet={srcSet}
      sizes={sizes}
      alt={alt}
      width={480}
      height={600}
      priority={priority}
      className={cn("aspect-[4/5] object-cover", className)}
    />
  );
}

/** The portrait's alternative text: the owner's name when known. */
export function portraitAlt(ownerName: string): string {
  return ownerName ? `Portrait of ${ownerName}` : "Portrait of the site owner";
}
