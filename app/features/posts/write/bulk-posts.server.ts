import { eq } from "drizzle-orm";
import { z } from "zod";
import { CATEGORIES, type Category } from "~/lib/categories";
import { canUpdatePost, type Actor } from "~/lib/permissions";
import { authorize } from "~/server/authorize.server";
import type { Db } from "~/server/db/client.server";
import { blogPosts } from "~/server/db/schema.server";
import { isAppError, parseOrThrow } from "~/server/errors.server";
import { BULK_ACTIONS, BULK_MESSAGES } from "./bulk-actions";
import { ADMIN_POSTS_PER_PAGE, deletePost, getPostBySlug, updatePost } from "./posts.server";

/** A bulk action as Blog Management posts it: what to do, to which posts (one page at most), and where to move them. */
export const bulkPostsSchema = z
  .object({
    action: z.enum(BULK_ACTIONS, { error: BULK_MESSAGES.unknownAction }),
    ids: z
      .array(z.uuid({ error: BULK_MESSAGES.noPosts }))
      .min(1, BULK_MESSAGES.noPosts)
      .max(ADMIN_POSTS_PER_PAGE, BULK_MESSAGES.tooMany),
    category: z.enum(CATEGORIES, { error: BULK_MESSAGES.categoryRequired }).optional(),
  })
  .refine((v) => v.action !== "move" || v.category !== undefined, { path: ["category"], message: BULK_MESSAGES.categoryRequired });

export interface BulkResult {
  /** How many posts the action changed. */
  done: number;
  /** The posts it left alone, each with the reason a person can act on (not theirs to delete, alt text missing, ...). */
  skipped: { title: string; reason: string }[];
}

/**
 * Applies one action to each selected post through the same domain functions a single edit or delete
 * uses, so every rule holds per post: who may delete it (canDeletePost: admins, or the post's author),
 * alt text before going live, the newsletter choice stored with the post, redirects from a moved
 * post's old address, revisions and the audit log. A post refused by a rule is reported, not fatal:
 * the others still change. Each post is its own transaction.
 */
export async function bulkPostAction(db: Db, actor: Actor | null, raw: unknown): Promise<BulkResult> {
  authorize(actor, canUpdatePost);
  const input = parseOrThrow(bulkPostsSchema, raw);
  const result: BulkResult = { done: 0, skipped: [] };
  for (const id of new Set(input.ids)) {
    const [row] = await db
      .select({ slug: blogPosts.slug, title: blogPosts.title, emailOnPublish: blogPosts.emailOnPublish })
      .from(blogPosts)
      .where(eq(blogPosts.id, id))
      .limit(1);
    if (!row) {
      result.skipped.push({ title: BULK_MESSAGES.unknownPost, reason: BULK_MESSAGES.gone });
      continue;
    }
    try {
      if (input.action === "delete") await deletePost(db, actor, row.slug);
      else await rewritePost(db, actor, row.slug, row.emailOnPublish, input.action, input.category);
      result.done += 1;
    } catch (error) {
      if (!isAppError(error)) throw error;
      result.skipped.push({ title: row.title, reason: error.message });
    }
  }
  return result;
}

/** Saves a post as it is, but published, unpublished (a draft, its schedule dropped) or in another category. */
async function rewritePost(
  db: Db,
  actor: Actor | null,
  slug: string,
  emailSubscribers: boolean,
  action: "publish" | "unpublish" | "move",
  category: Category | undefined,
): Promise<void> {
  const post = await getPostBySlug(db, slug);
  if (!post) return;
  await updatePost(db, actor, slug, {
    title: post.title,
    content: post.content,
    excerpt: post.excerpt,
    featuredImageUrl: post.featuredImageUrl,
    featuredImageAlt: post.featuredImageAlt,
    category: action === "move" && category ? category : post.category,
    published: action === "publish" ? true : action === "unpublish" ? false : post.published,
    featured: post.featured,
    media: post.media.map((m) => ({
      mediaType: m.mediaType,
      mediaUrl: m.mediaUrl,
      caption: m.caption ?? undefined,
      alt: m.alt ?? undefined,
      uploadId: m.uploadId ?? undefined,
    })),
    emailSubscribers,
    publishAt: action === "move" && !post.published ? post.scheduledAt : null,
    version: post.version,
  });
}
