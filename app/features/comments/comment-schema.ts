import { z } from "zod";
import { EMAIL_MAX_LENGTH, emailSchema } from "~/lib/email";

/** A hidden field people never fill; a submission that fills it is dropped (answered like a success). */
export const COMMENT_HONEYPOT = "fax";

export const COMMENT_LIMITS = { name: 80, email: EMAIL_MAX_LENGTH, url: 300, body: 4000 } as const;

const optionalUrl = z
  .string()
  .optional()
  .default("")
  .pipe(
    z
      .string()
      .trim()
      .max(COMMENT_LIMITS.url, "Website must be at most 300 characters")
      .refine((value) => value === "" || /^https?:\/\/[^\s]+\.[^\s]+$/i.test(value), "Website must start with http:// or https://"),
  )
  .transform((value) => value || null);

/** What a reader types, the same in the browser and on the server. */
export const commentFieldsSchema = z.object({
  name: z.string().trim().min(1, "Name is required").max(COMMENT_LIMITS.name, "Name must be at most 80 characters"),
  email: emailSchema,
  url: optionalUrl,
  body: z.string().trim().min(1, "Comment is required").max(COMMENT_LIMITS.body, "Comment must be at most 4000 characters"),
});

/** What a comment is on: a post, or one of the owner's pages. */
export interface CommentSubjectRef {
  kind: "post" | "page";
  id: string;
}
/** The form field, and the reply page's query parameter, that names the subject of each kind. */
export const SUBJECT_FIELD = { post: "postId", page: "pageId" } as const;
export const SUBJECT_PARAM = { post: "post", page: "page" } as const;

/** The subject a form (postId or pageId) or an address (post or page) names, or null. */
export function subjectOf(values: { post?: string | null; page?: string | null }): CommentSubjectRef | null {
  if (values.page) return { kind: "page", id: values.page };
  if (values.post) return { kind: "post", id: values.post };
  return null;
}

/** The whole form post (fields, thread, the anti-spam fields). */
export const commentRequestSchema = commentFieldsSchema.extend({
  postId: z.uuid("Unknown post").optional(),
  pageId: z.uuid("Unknown page").optional(),
  parentId: z
    .string()
    .optional()
    .transform((value) => value || null)
    .pipe(z.uuid("Unknown comment").nullable()),
  notify: z
    .string()
    .optional()
    .transform((value) => value === "on"),
  stamp: z.string().max(200).optional().default(""),
  verificationToken: z.string().max(4096).optional().default(""),
  [COMMENT_HONEYPOT]: z.string().max(2000).optional().default(""),
});

export type CommentRequest = z.output<typeof commentRequestSchema>;

/** Staff-only: editing a comment's text, or a commenter editing theirs within the window. */
export const commentBodySchema = z.object({ body: commentFieldsSchema.shape.body });

/** The site-wide comment settings (admin → Comments). */
export const commentSettingsSchema = z.object({
  enabled: z.boolean().default(true),
  /** Comments close on posts published more than this many days ago (0: never). */
  closeAfterDays: z.coerce.number().int().min(0, "Days must be 0 or more").max(36500).default(0),
  /** More links than this and a comment waits for a moderator. */
  linkLimit: z.coerce.number().int().min(0, "Link limit must be 0 or more").max(50).default(2),
  /** Top-level comments newest first (replies always read oldest first). */
  newestFirst: z.boolean().default(false),
});

export type CommentSettings = z.output<typeof commentSettingsSchema>;

export const COMMENT_TEXTS = {
  held: "Thank you! Your comment is waiting for moderation.",
  published: "Thank you! Your comment is published.",
  closed: "Comments are closed here.",
  rateLimited: "You have sent several comments in a short time. Please try again later.",
  author: "Author",
  editWindow: "You can edit or delete your comment for 15 minutes.",
  // Said to every reader alike, so the page does not tell whether an address was confirmed before.
  confirmationMailed:
    "If your email is not confirmed yet, we have sent you a link to confirm it: the site's owner can then publish your next comments without moderation.",
} as const;

/** How long a commenter may edit or delete their comment from the same browser. */
export const EDIT_WINDOW_MS = 15 * 60 * 1000;
/** A form sent sooner than this after the page was drawn waits for a moderator. */
export const MIN_SUBMIT_MS = 3000;

/** A comment as the post page shows it: built by postCommentThread, drawn by CommentsSection. */
export interface CommentView {
  id: string;
  authorName: string;
  authorUrl: string | null;
  staff: boolean;
  html: string;
  createdAt: string;
  /** For a reply sent by Webmention: the page it was written on. */
  source: string | null;
  /** For a reply from the fediverse: the author's handle (user@host). */
  fediverseHandle: string | null;
  /** A remote author's picture, as our own copy (/uploads/…); null: their initials are shown. */
  avatar: string | null;
  /** Set on a reply to a reply (the thread shows two levels): whom it answers. */
  replyingTo: string | null;
  replies: CommentView[];
}

/** A like, repost or mention from another site (Webmention), as the post page lists it. */
export interface MentionView {
  id: string;
  kind: "like" | "repost" | "mention";
  authorName: string;
  authorUrl: string | null;
  source: string;
  createdAt: string;
}

/** What the "Mentions" list says of each kind. */
export const MENTION_VERBS: Record<MentionView["kind"], string> = {
  like: "liked this",
  repost: "reposted this",
  mention: "mentioned this",
};

/**
 * What stands in for a remote author's avatar (fediverse, Webmention) until our copy of their picture
 * exists, or when they have none: up to two initials of their name. Their server's own address is never
 * shown (the visitor's browser would call a third party).
 */
export function authorInitials(name: string): string {
  const words = name
    .replace(/^@/, "")
    .split(/[\s._-]+/)
    .filter((word) => /[\p{L}\p{N}]/u.test(word));
  const first = (word: string | undefined) => Array.from(word?.replace(/^[^\p{L}\p{N}]+/u, "") ?? "")[0] ?? "";
  return (first(words[0]) + (words.length > 1 ? first(words.at(-1)) : "")).toLocaleUpperCase("en-US") || "?";
}
