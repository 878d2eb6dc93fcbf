import { ResponsiveImage } from "~/components/responsive-image";
import { isSafeImageUrl, isVideoFileUrl, vimeoEmbedUrl, youtubeEmbedUrl, type MediaKind } from "./media-urls";

export interface MediaViewItem {
  id: string;
  mediaType: MediaKind;
  mediaUrl: string;
  caption: string | null;
  /** Alt text (images). */
  alt?: string | null;
  srcSet?: string;
}

/** One attached media item; a URL that does not match its kind is not rendered at all. */
function MediaBody({ item, title }: { item: MediaViewItem; title: string }) {
  if (item.mediaType === "youtube" || item.mediaType === "vimeo") {
    const src = item.mediaType === "youtube" ? youtubeEmbedUrl(item.mediaUrl) : vimeoEmbedUrl(item.mediaUrl);
    if (!src) return null;
    return (
      <div className="aspect-video w-full overflow-hidden rounded-lg bg-muted">
        <iframe
          src={src}
          title={item.caption ?? `${item.mediaType === "youtube" ? "YouTube" : "Vimeo"} video in ${title}`}
          className="h-full w-full"
          loading="lazy"
          allow="accelerometer; encrypted-media; gyroscope; picture-in-picture; fullscreen"
          allowFullScreen
          referrerPolicy="strict-origin-when-cross-origin"
        />
      </div>
    );
  }
  if (item.mediaType === "video") {
    if (!isVideoFileUrl(item.mediaUrl)) return null;
    return (
      // No <track>: a caption file is not part of a media item, and an empty <track> is invalid HTML.
      <video
        controls
        preload="metadata"
        className="w-full rounded-lg"
        src={item.mediaUrl}
        aria-label={item.caption ?? `Video in ${title}`}
      />
    );
  }
  if (!isSafeImageUrl(item.mediaUrl)) return null;
  return (
    <ResponsiveImage
      src={item.mediaUrl}
      srcSet={item.srcSet}
      sizes="(min-width: 768px) 768px, 100vw"
      alt={item.alt || item.caption || `Image in ${title}`}
      // A 16:9 box is reserved until the image (any ratio) arrives.
      width={1200}
      height={675}
      className="h-auto w-full rounded-lg"
    />
  );
}

export function MediaList({ items, title }: { items: MediaViewItem[]; title: string }) {
  if (items.length === 0) return null;
  return (
    <div className="mt-10 space-y-8" data-testid="post-media">
      {items.map((item) => (
        <figure key={item.id} data-media-type={item.mediaType}>
          <MediaBody item={item} title={title} />
          {item.caption ? <figcaption className="mt-2 text-center text-sm text-muted-foreground">{item.caption}</figcaption> : null}
        </figure>
      ))}
    </div>
  );
}
