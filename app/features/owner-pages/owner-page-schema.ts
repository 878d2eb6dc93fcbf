import { z } from "zod";
import { CONTENT_MAX, optionalText, POST_MESSAGES } from "~/features/posts/write/post-schema";
import { formCheckbox } from "~/lib/forms";
import { slugProblem } from "~/lib/slug";

export const PAGE_LIMITS = { title: 200, metaTitle: 70, metaDescription: 160 } as const;

export const PAGE_MESSAGES = {
  forbidden: "Only administrators (or moderators granted Pages & profile) can edit pages.",
  gone: "This page no longer exists.",
  titleRequired: "Title is required",
  titleTooLong: `Title must be at most ${PAGE_LIMITS.title} characters`,
  addressRequired: "Address is required (e.g. /speaking)",
  addressOneSegment: "The address is one part after the slash, without further slashes (e.g. /speaking, not /talks/speaking)",
  addressTaken: "Another page already uses that address. Choose another one.",
  metaTitleTooLong: `Meta title must be at most ${PAGE_LIMITS.metaTitle} characters`,
  metaDescriptionTooLong: `Meta description must be at most ${PAGE_LIMITS.metaDescription} characters`,
  conflict: "This page was changed by someone else. Reload to see their changes.",
} as const;

/** "That address is taken by the site's own /about page": a reserved word or an existing route. */
export function addressReservedMessage(address: string): string {
  return `The address /${address} belongs to the site itself (a built-in page or a reserved word). Choose another one.`;
}

/** The path a page answers at. */
export function ownerPagePath(address: string): string {
  return `/${address}`;
}

/**
 * The address as typed ("/Speaking", "speaking", " /speaking/ ") becomes one segment ("speaking"),
 * checked by the slug rule; a nested path is refused rather than flattened.
 */
export const addressSchema = z
  .string({ error: PAGE_MESSAGES.addressRequired })
  .trim()
  .transform((value) => value.replace(/^\/+/, "").replace(/\/+$/, ""))
  .superRefine((address, ctx) => {
    if (address === "") return void ctx.addIssue({ code: "custom", message: PAGE_MESSAGES.addressRequired });
    if (address.includes("/")) return void ctx.addIssue({ code: "custom", message: PAGE_MESSAGES.addressOneSegment });
    const problem = slugProblem(address);
    if (problem) ctx.addIssue({ code: "custom", message: problem.replace("URL slug", "The address") });
  });

/** One page as the editor sends it, for the browser form and the domain alike. */
export const ownerPageInputSchema = z.object({
  title: z
    .string({ error: PAGE_MESSAGES.titleRequired })
    .trim()
    .min(1, PAGE_MESSAGES.titleRequired)
    .max(PAGE_LIMITS.title, PAGE_MESSAGES.titleTooLong),
  address: addressSchema,
  content: z
    .string({ error: POST_MESSAGES.contentRequired })
    .max(CONTENT_MAX, POST_MESSAGES.contentTooLong)
    .refine((c) => c.trim().length > 0, POST_MESSAGES.contentRequired),
  metaTitle: optionalText(PAGE_LIMITS.metaTitle, PAGE_MESSAGES.metaTitleTooLong),
  metaDescription: optionalText(PAGE_LIMITS.metaDescription, PAGE_MESSAGES.metaDescriptionTooLong),
  published: z.boolean(),
  /** Readers may comment under the page (the same thread, form and moderation as posts). Off unless turned on. */
  commentsEnabled: z.boolean().default(false),
  /** The version the edit was based on: an older one is refused as a conflict. */
  version: z.number().int().min(1).optional(),
});

export type OwnerPageInput = z.output<typeof ownerPageInputSchema>;

/** The page form as the browser posts it (the switch sends "on", the version a string). */
export const ownerPageFormSchema = ownerPageInputSchema.extend({
  published: formCheckbox,
  commentsEnabled: formCheckbox,
  version: z
    .string()
    .regex(/^\d{1,9}$/)
    .optional()
    .transform((v) => (v ? Number(v) : undefined)),
});

export const pageIdSchema = z.uuid(PAGE_MESSAGES.gone);

/**
 * schema.org WebPage for a published page: the site is its publisher (one owner); `commentCount` (the
 * approved comments, as posts carry it) only where the page takes comments.
 */
export function ownerPageJsonLd(
  publicUrl: string,
  page: { title: string; address: string; metaDescription: string | null },
  siteName: string,
  commentCount: number | null,
) {
  return {
    "@context": "https://schema.org",
    "@type": "WebPage",
    name: page.title,
    url: `${publicUrl}${ownerPagePath(page.address)}`,
    ...(page.metaDescription ? { description: page.metaDescription } : {}),
    publisher: { "@type": "Organization", name: siteName, url: publicUrl },
    ...(commentCount === null ? {} : { commentCount }),
  };
}
