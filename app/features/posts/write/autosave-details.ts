import { z } from "zod";
import { ALT_MAX, MAX_MEDIA_ITEMS, MEDIA_KINDS } from "~/features/media/media";
import { CATEGORIES } from "~/lib/categories";

/**
 * The post form's fields beyond its text, as autosave keeps them (post_autosaves.details): restore
 * brings them all back. Like the text, nothing here is checked by the save rules (a half-made post is
 * what autosave is for), only bounded; media items keep any other property the editor gives them.
 */
export const autosaveDetailsSchema = z.object({
  category: z.enum(CATEGORIES),
  slug: z.string().max(300).default(""),
  published: z.boolean().default(false),
  featured: z.boolean().default(false),
  media: z
    .array(
      z.looseObject({
        mediaType: z.enum(MEDIA_KINDS),
        mediaUrl: z.string().max(2000),
        caption: z.string().max(2000).default(""),
        alt: z
          .string()
          .max(ALT_MAX * 4)
          .default(""),
        uploadId: z.string().max(100).optional(),
      }),
    )
    .max(MAX_MEDIA_ITEMS * 2)
    .default([]),
  schedule: z.boolean().default(false),
  /** 'Publish at' as the datetime-local value the author typed. */
  publishAt: z.string().max(40).default(""),
});

export type AutosaveDetails = z.output<typeof autosaveDetailsSchema>;

/** The details as stored and compared: one key order, whatever order they arrived in. */
export function normalizeDetails(value: unknown): AutosaveDetails | null {
  const parsed = autosaveDetailsSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}
