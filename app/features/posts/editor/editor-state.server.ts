import type { SessionUser } from "~/features/auth/session.server";
import { readNewsletterSettings } from "~/features/subscriptions/newsletter-settings.server";
import { postEmailStatus } from "~/features/subscriptions/subscriptions.server";
import { autosaveToOffer, type StoredAutosave } from "~/features/posts/write/autosave.server";
import type { PostWithMedia } from "~/features/posts/write/posts.server";
import type { Category } from "~/lib/categories";
import { formatInZone, utcToZonedLocal } from "~/lib/time-zone";
import type { Db } from "~/server/db/client.server";
import { getEnv } from "~/server/env.server";

/** An autosave the editor offers to restore, as the editor shows it (times in the site's zone). */
function offer(saved: StoredAutosave | null, timeZone: string) {
  return saved
    ? {
        title: saved.title,
        excerpt: saved.excerpt,
        content: saved.content,
        featuredImageUrl: saved.featuredImageUrl,
        details: saved.details,
        featuredImageAlt: saved.featuredImageAlt,
        savedAt: saved.savedAt.toISOString(),
        savedAtLabel: formatInZone(saved.savedAt, timeZone),
      }
    : null;
}

/** The editor's state for a new post in a category: empty, with the user's unsaved draft to offer. */
export async function newPostEditorState(db: Db, user: SessionUser, category: Category) {
  const timeZone = getEnv().SITE_TIME_ZONE;
  const { emailByDefault } = await readNewsletterSettings(db);
  return {
    category,
    timeZone,
    post: null,
    newsletter: { emailByDefault, emailed: null },
    autosave: offer(await autosaveToOffer(db, user.id, { category }, null), timeZone),
  };
}

/** The editor's state for an existing post: its fields in the form's shape, and a newer autosave to offer. */
export async function postEditorState(db: Db, user: SessionUser, post: PostWithMedia) {
  const timeZone = getEnv().SITE_TIME_ZONE;
  // The form's fields beyond the text, in the shape autosave keeps them (to tell a real change).
  const details = {
    category: post.category,
    slug: post.slug,
    published: post.published,
    featured: post.featured,
    media: post.media.map((m) => ({
      mediaType: m.mediaType,
      mediaUrl: m.mediaUrl,
      caption: m.caption ?? "",
      alt: m.alt ?? "",
      uploadId: m.uploadId ?? undefined,
    })),
    schedule: post.scheduledAt !== null && !post.published,
    publishAt: post.scheduledAt && !post.published ? utcToZonedLocal(post.scheduledAt, timeZone) : "",
  };
  const editable = {
    title: post.title,
    excerpt: post.excerpt ?? "",
    content: post.content,
    featuredImageUrl: post.featuredImageUrl ?? "",
    details,
    featuredImageAlt: post.featuredImageAlt ?? "",
    updatedAt: post.updatedAt,
  };
  const { emailOnPublish, emailed } = await postEmailStatus(db, post.id);
  return {
    category: post.category,
    timeZone,
    newsletter: {
      // A saved post starts with its own choice (a draft saved before got the default then).
      emailByDefault: emailOnPublish,
      emailed: emailed ? { queued: emailed.queued, sent: emailed.sent, atLabel: formatInZone(emailed.at, timeZone) } : null,
    },
    autosave: offer(await autosaveToOffer(db, user.id, { postId: post.id }, editable), timeZone),
    post: {
      ...details,
      id: post.id,
      title: editable.title,
      excerpt: editable.excerpt,
      content: editable.content,
      featuredImageUrl: editable.featuredImageUrl,
      featuredImageAlt: editable.featuredImageAlt,
      version: post.version,
    },
  };
}
