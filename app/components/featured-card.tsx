import { ArrowRight, ExternalLink } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Link } from "react-router";
import { Button } from "~/components/ui/button";
import { FEATURED_FRAME_ATTRIBUTE, whenImageBroken } from "./featured-card-behavior";
import { ResponsiveImage, storedImage } from "./responsive-image";

export interface FeaturedCardProps {
  kicker: string;
  title: string;
  description: string;
  image: string | null;
  /** The image's alt text; empty when it only decorates the card. */
  imageAlt?: string;
  href: string;
  external?: boolean;
  cta: string;
}

/** One card of the home page's Featured Work grid. */
export function FeaturedCard({ kicker, title, description, image, imageAlt = "", href, external = false, cta }: FeaturedCardProps) {
  const picture = image ? storedImage(image) : null;
  // External feed images may vanish or refuse hotlinking: a broken one gives way to the placeholder.
  const [broken, setBroken] = useState(false);
  const frame = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const img = frame.current?.querySelector("img");
    return img ? whenImageBroken(img, () => setBroken(true)) : undefined;
  }, []);
  return (
    <article className="flex flex-col overflow-hidden rounded-xl border bg-card shadow-sm">
      <div
        ref={frame}
        className="aspect-video w-full bg-gradient-to-br from-primary/80 to-sky-400/70"
        {...{ [FEATURED_FRAME_ATTRIBUTE]: "" }}
      >
        {picture && !broken ? (
          <ResponsiveImage
            src={picture.src}
            widths={picture.widths}
            sizes="(min-width: 1024px) 33vw, (min-width: 640px) 50vw, 100vw"
            alt={imageAlt}
            width={800}
            height={450}
            className="aspect-video w-full object-cover"
          />
        ) : null}
      </div>
      <div className="flex flex-1 flex-col gap-2 p-5">
        <p className="text-xs font-semibold tracking-wide text-primary uppercase">{kicker}</p>
        <h3 className="text-lg leading-snug font-semibold">{title}</h3>
        {description ? <p className="line-clamp-4 text-sm text-muted-foreground">{description}</p> : null}
        <div className="mt-auto pt-3">
          <Button asChild variant="outline" size="sm">
            {external ? (
              <a href={href} target="_blank" rel="noopener noreferrer" aria-label={`${cta}: ${title} (opens in a new tab)`}>
                {cta}
                <ExternalLink aria-hidden />
              </a>
            ) : (
              <Link to={href} aria-label={`${cta}: ${title}`}>
                {cta}
                <ArrowRight aria-hidden />
              </Link>
            )}
          </Button>
        </div>
      </div>
    </article>
  );
}
