import { z } from "zod";
import { CATEGORIES } from "~/lib/categories";
import { slugify, slugProblem } from "~/lib/slug";
import { formCheckbox, jsonField } from "~/lib/forms";
import { formatInZone, zonedLocalToUtc } from "~/lib/time-zone";
import { ALT_MAX, ALT_TOO_LONG, isSafeImageUrl, MAX_MEDIA_ITEMS, mediaItemSchema } from "~/features/media/media";
import { firstImageWithoutAlt, missingAltMessage, type ImagesOfPost } from "./image-alt";

export const TITLE_MAX = 200;
export const EXCERPT_MAX = 500;
export const CONTENT_MAX = 100_000;

export const POST_MESSAGES = {
  titleRequired: "Title is required",
  titleNoSlug: "Title must contain at least one letter or number (a-z, 0-9)",
  titleTooLong: `Title must be less than ${TITLE_MAX} characters`,
  contentRequired: "Content is required",
  contentTooLong: `Content must be less than ${CONTENT_MAX.toLocaleString("en-US")} characters`,
  excerptTooLong: `Excerpt must be less than ${EXCERPT_MAX} characters`,
  featuredImageUrl: "Featured image URL must be a valid URL (http, https or an uploaded image)",
  tooManyMedia: `A post can have at most ${MAX_MEDIA_ITEMS} media items`,
  publishAtRequired: "Choose the date and time to publish at",
  publishAtInvalid: "Publish at must be a date and time",
  publishAtPast: "Publish at must be in the future",
  conflict: "This post was changed by someone else. Reload to see their changes.",
  categoryInvalid: "Choose one of the seven categories",
  slugTaken: "That URL slug is already used by another post. Choose another one.",
  slugReserved: "That URL slug is reserved by the site. Choose another one.",
} as const;

/** A post waiting to go live, as staff see it: 'Scheduled for {time in the site's zone}'. */
export function scheduledLabel(at: Date, timeZone: string): string {
  return `Scheduled for ${formatInZone(at, timeZone)}`;
}

/** The toast after saving a scheduled post. */
export function scheduledToast(at: Date, timeZone: string): string {
  return `Post scheduled for ${formatInZone(at, timeZone)}`;
}

/** 'URL slug' (edit mode): the one slug rule of ~/lib/slug, with its message. */
export const slugFieldSchema = z
  .string()
  .trim()
  .superRefine((slug, ctx) => {
    const problem = slugProblem(slug);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

/** An optional text field: trimmed, at most `max` characters, null when empty. */
export const optionalText = (max: number, message: string) =>
  z
    .string()
    .trim()
    .max(max, message)
    .nullish()
    .transform((v) => (v ? v : null));

/**
 * A post that goes live (published now or scheduled) must not show an image without alt text; a
 * draft may. One check for the domain schema and the browser form.
 */
function requireAltToPublish(value: ImagesOfPost & { goesLive: boolean }, ctx: z.RefinementCtx) {
  if (!value.goesLive) return;
  const missing = firstImageWithoutAlt(value);
  if (missing) ctx.addIssue({ code: "custom", path: missing.path, message: missingAltMessage(missing.url) });
}

/** SPEC §5 post form rules — one schema for the browser form and the server action. */
const postInputObject = z.object({
  title: z
    .string({ error: POST_MESSAGES.titleRequired })
    .trim()
    .min(1, POST_MESSAGES.titleRequired)
    .max(TITLE_MAX, POST_MESSAGES.titleTooLong)
    .refine((t) => slugify(t) !== "", POST_MESSAGES.titleNoSlug),
  content: z
    .string({ error: POST_MESSAGES.contentRequired })
    .max(CONTENT_MAX, POST_MESSAGES.contentTooLong)
    .refine((c) => c.trim().length > 0, POST_MESSAGES.contentRequired),
  excerpt: optionalText(EXCERPT_MAX, POST_MESSAGES.excerptTooLong),
  featuredImageUrl: z
    .string()
    .trim()
    .max(2000, POST_MESSAGES.featuredImageUrl)
    .nullish()
    .transform((v) => (v ? v : null))
    .refine((v) => v === null || isSafeImageUrl(v), POST_MESSAGES.featuredImageUrl),
  featuredImageAlt: optionalText(ALT_MAX, ALT_TOO_LONG),
  category: z.enum(CATEGORIES, { error: POST_MESSAGES.categoryInvalid }),
  /** Edit mode only: the new address's slug (absent: unchanged). A new post's slug comes from its title. */
  slug: slugFieldSchema.optional(),
  published: z.boolean(),
  /** 'Feature on home page': the featured-article query (SPEC §7) orders by it. */
  featured: z.boolean().default(false),
  media: z.array(mediaItemSchema).max(MAX_MEDIA_ITEMS, POST_MESSAGES.tooManyMedia).default([]),
  /**
   * "Publish and email subscribers" (true) or "Publish" (false), applied when the post goes live,
   * now or by the scheduler; absent: the newsletter settings' default.
   */
  emailSubscribers: z.boolean().optional(),
  /** When set (and `published` is false) the post is scheduled: published by a job at this instant. */
  publishAt: z.date().nullable().default(null),
  /** The version the edit was based on (edit mode): an older one is refused as a conflict. */
  version: z.number().int().min(1).optional(),
});

export const postInputSchema = postInputObject.superRefine((value, ctx) =>
  requireAltToPublish({ ...value, goesLive: value.published || value.publishAt !== null }, ctx),
);

export type PostInput = z.output<typeof postInputSchema>;

/**
 * The post form as the browser posts it (the switch sends "on", the media list travels as JSON; a new
 * post's category comes from the address, edit mode has 'Category' and 'URL slug' fields): checked
 * with the same rules by the form and by the action.
 */
export const postFormSchema = postInputObject
  .omit({ category: true, publishAt: true, version: true })
  .extend({
    category: postInputSchema.shape.category.optional(),
    published: formCheckbox,
    featured: formCheckbox,
    media: jsonField(postInputObject.shape.media),
    schedule: formCheckbox,
    /** The 'When it goes live' choice; absent when the form does not offer it (the post was emailed already). */
    emailSubscribers: z
      .enum(["yes", "no"])
      .optional()
      .transform((v) => (v === undefined ? undefined : v === "yes")),
    /** A `datetime-local` value in the site's time zone ("YYYY-MM-DDTHH:mm"). */
    publishAt: z.string().trim().optional(),
    version: z
      .string()
      .regex(/^\d{1,9}$/)
      .optional()
      .transform((v) => (v ? Number(v) : undefined)),
  })
  .superRefine((value, ctx) => {
    requireAltToPublish({ ...value, goesLive: value.published || value.schedule }, ctx);
    if (!value.schedule || value.published) return;
    if (!value.publishAt) ctx.addIssue({ code: "custom", path: ["publishAt"], message: POST_MESSAGES.publishAtRequired });
    // The zone does not make a date-time valid or not: UTC checks the calendar.
    else if (!zonedLocalToUtc(value.publishAt, "UTC"))
      ctx.addIssue({ code: "custom", path: ["publishAt"], message: POST_MESSAGES.publishAtInvalid });
  });

export type PostFormValue = z.output<typeof postFormSchema>;

/**
 * The domain input for a checked post form: 'Publish at' is read in the site's time zone. Creating,
 * the category is the address's and the slug follows the title (SPEC §4), whatever the form sent.
 */
export function postInputFromForm(value: PostFormValue, address: { category: PostInput["category"]; editing: boolean }, timeZone: string) {
  const { schedule, publishAt, category, slug, ...rest } = value;
  const at = schedule && !rest.published && publishAt ? zonedLocalToUtc(publishAt, timeZone) : null;
  return address.editing
    ? { ...rest, category: category ?? address.category, slug, publishAt: at }
    : { ...rest, category: address.category, publishAt: at };
}
