import { and, eq, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import { CATEGORIES, type Category } from "~/lib/categories";
import { canCreatePost, canUpdatePost, type Actor } from "~/lib/permissions";
import type { Db } from "~/server/db/client.server";
import { blogPosts, postAutosaves } from "~/server/db/schema.server";
import { authorize } from "~/server/authorize.server";
import { NotFoundError, parseOrThrow } from "~/server/errors.server";
import { autosaveDetailsSchema, normalizeDetails, type AutosaveDetails } from "./autosave-details";
import { ALT_MAX } from "~/features/media/media";
import { CONTENT_MAX, EXCERPT_MAX, TITLE_MAX } from "./post-schema";

/**
 * Autosave (docs/decisions/0026-autosave-revisions-scheduling.md): the editor's unsaved text, kept per author and post
 * (edit mode) or per author and category (create mode). It never touches the post itself: the live
 * text changes only on Create/Update Post, which also clears the author's autosave.
 */
export const autosaveInputSchema = z.object({
  postId: z.uuid().optional(),
  category: z.enum(CATEGORIES),
  // No "required" rules here: a half-typed post is exactly what autosave is for. Only the limits hold.
  title: z
    .string()
    .max(TITLE_MAX * 4)
    .default(""),
  excerpt: z
    .string()
    .max(EXCERPT_MAX * 4)
    .default(""),
  content: z.string().max(CONTENT_MAX).default(""),
  featuredImageUrl: z.string().max(2000).default(""),
  featuredImageAlt: z
    .string()
    .max(ALT_MAX * 4)
    .default(""),
  baseVersion: z.coerce.number().int().min(1).optional(),
  /** The form's other fields as JSON (see autosave-details.ts); absent from older editors. */
  details: z
    .string()
    .max(200_000)
    .optional()
    .transform((text, ctx) => {
      if (!text) return undefined;
      try {
        const value: unknown = JSON.parse(text);
        return value;
      } catch {
        ctx.addIssue({ code: "custom", message: "The autosave could not be read." });
        return z.NEVER;
      }
    })
    .pipe(autosaveDetailsSchema.optional()),
});

export type AutosaveInput = z.input<typeof autosaveInputSchema>;

type Target = { postId: string } | { category: Category };
const SAVE_FORBIDDEN = "You don't have permission to save posts.";

function whereOf(authorId: string, target: Target) {
  return "postId" in target
    ? and(eq(postAutosaves.authorId, authorId), eq(postAutosaves.postId, target.postId))
    : and(eq(postAutosaves.authorId, authorId), isNull(postAutosaves.postId), eq(postAutosaves.category, target.category));
}

/** Stores (or replaces) the actor's autosave for a post or a new post in a category; returns when it was saved. */
export async function saveAutosave(db: Db, actor: Actor | null, raw: unknown): Promise<{ savedAt: Date }> {
  authorize(actor, (a) => canCreatePost(a) || canUpdatePost(a), SAVE_FORBIDDEN);
  const input = parseOrThrow(autosaveInputSchema, raw, "The autosave could not be read.");
  authorize(actor, input.postId ? canUpdatePost : canCreatePost, SAVE_FORBIDDEN);
  if (input.postId) {
    const [post] = await db.select({ id: blogPosts.id }).from(blogPosts).where(eq(blogPosts.id, input.postId)).limit(1);
    if (!post) throw new NotFoundError("That post no longer exists.");
  }
  const now = new Date();
  const values = {
    authorId: actor.id,
    postId: input.postId ?? null,
    category: input.category,
    title: input.title,
    excerpt: input.excerpt,
    content: input.content,
    featuredImageUrl: input.featuredImageUrl,
    featuredImageAlt: input.featuredImageAlt,
    baseVersion: input.baseVersion ?? null,
    details: input.details ?? null,
    updatedAt: now,
  };
  const set = {
    details: values.details,
    title: values.title,
    excerpt: values.excerpt,
    content: values.content,
    featuredImageUrl: values.featuredImageUrl,
    featuredImageAlt: values.featuredImageAlt,
    baseVersion: values.baseVersion,
    updatedAt: now,
  };
  await (input.postId
    ? db
        .insert(postAutosaves)
        .values(values)
        .onConflictDoUpdate({
          target: [postAutosaves.authorId, postAutosaves.postId],
          targetWhere: sql`${postAutosaves.postId} is not null`,
          set,
        })
    : db
        .insert(postAutosaves)
        .values(values)
        .onConflictDoUpdate({
          target: [postAutosaves.authorId, postAutosaves.category],
          targetWhere: sql`${postAutosaves.postId} is null`,
          set,
        }));
  return { savedAt: now };
}

export interface StoredAutosave {
  title: string;
  excerpt: string;
  content: string;
  featuredImageUrl: string;
  /** The form's other fields; null for an autosave from before they were kept. */
  details: AutosaveDetails | null;
  featuredImageAlt: string;
  savedAt: Date;
}

/** The actor's autosave for a post or a new post in a category, or null. */
export async function getAutosave(db: Db, authorId: string, target: Target): Promise<StoredAutosave | null> {
  const [row] = await db
    .select({
      title: postAutosaves.title,
      excerpt: postAutosaves.excerpt,
      content: postAutosaves.content,
      featuredImageUrl: postAutosaves.featuredImageUrl,
      details: postAutosaves.details,
      featuredImageAlt: postAutosaves.featuredImageAlt,
      savedAt: postAutosaves.updatedAt,
    })
    .from(postAutosaves)
    .where(whereOf(authorId, target))
    .limit(1);
  return row ? { ...row, details: normalizeDetails(row.details) } : null;
}

const discardTargetSchema = z.union([z.object({ postId: z.uuid() }), z.object({ category: z.enum(CATEGORIES) })]);

/** 'Discard': drops the signed-in author's own autosave for a post or a new post in a category. */
export async function discardOwnAutosave(db: Db, actor: Actor | null, raw: unknown): Promise<void> {
  authorize(actor, () => true);
  await discardAutosave(db, actor.id, parseOrThrow(discardTargetSchema, raw, "Say which autosave to discard."));
}

/** Drops an author's autosave (discarded, or the post was saved: in the save's transaction). */
export async function discardAutosave(db: Db, authorId: string, target: Target): Promise<void> {
  await db.delete(postAutosaves).where(whereOf(authorId, target));
}

/**
 * The autosave worth offering when the editor opens: newer than the saved post and different from it
 * (an autosave that landed just after its own save holds the saved text and is not offered).
 */
export async function autosaveToOffer(
  db: Db,
  authorId: string,
  target: Target,
  post: {
    title: string;
    excerpt: string;
    content: string;
    featuredImageUrl: string;
    featuredImageAlt?: string;
    details?: unknown;
    updatedAt: Date;
  } | null,
): Promise<StoredAutosave | null> {
  const saved = await getAutosave(db, authorId, target);
  if (!saved) return null;
  if (!post) return saved.title || saved.content || saved.excerpt ? saved : null;
  const same =
    saved.title === post.title &&
    saved.excerpt === post.excerpt &&
    saved.content === post.content &&
    saved.featuredImageUrl === post.featuredImageUrl &&
    saved.featuredImageAlt === (post.featuredImageAlt ?? "") &&
    (saved.details === null || JSON.stringify(saved.details) === JSON.stringify(normalizeDetails(post.details)));
  return !same && saved.savedAt > post.updatedAt ? saved : null;
}
