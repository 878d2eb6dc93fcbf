import { z } from "zod";
import {
  ALT_MAX,
  ALT_TOO_LONG,
  isSafeImageUrl,
  isVideoFileUrl,
  MEDIA_KINDS,
  MEDIA_URL_MESSAGE,
  vimeoEmbedUrl,
  youtubeEmbedUrl,
} from "./media-urls";

export * from "./media-urls";

export const mediaItemSchema = z
  .object({
    mediaType: z.enum(MEDIA_KINDS),
    mediaUrl: z.string().trim().min(1, "Media URL is required").max(2000, "Media URL is too long"),
    caption: z
      .string()
      .trim()
      .max(300, "Caption must be less than 300 characters")
      .optional()
      .transform((v) => (v ? v : undefined)),
    /** Alt text (images): optional on a draft, required to publish (see firstImageWithoutAlt). */
    alt: z
      .string()
      .trim()
      .max(ALT_MAX, ALT_TOO_LONG)
      .optional()
      .transform((v) => (v ? v : undefined)),
    uploadId: z.uuid().optional(),
  })
  .superRefine((item, ctx) => {
    const ok =
      item.mediaType === "youtube"
        ? youtubeEmbedUrl(item.mediaUrl) !== null
        : item.mediaType === "vimeo"
          ? vimeoEmbedUrl(item.mediaUrl) !== null
          : item.mediaType === "video"
            ? isVideoFileUrl(item.mediaUrl)
            : isSafeImageUrl(item.mediaUrl);
    if (!ok)
      ctx.addIssue({
        code: "custom",
        path: ["mediaUrl"],
        message: item.mediaType === "image" ? "Image URL must be an http(s) URL or an uploaded image" : MEDIA_URL_MESSAGE,
      });
  });

export type MediaItemInput = z.input<typeof mediaItemSchema>;
export type MediaItem = z.output<typeof mediaItemSchema>;

export const MAX_MEDIA_ITEMS = 50;
