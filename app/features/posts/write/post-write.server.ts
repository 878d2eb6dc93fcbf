import { and, eq, ne } from "drizzle-orm";
import type { Category } from "~/lib/categories";
import { slugCandidate } from "~/lib/slug";
import { emailPostIfChosen } from "~/features/subscriptions/subscriptions.server";
import { enqueuePostShareImage, type CardSite } from "~/features/share-images/share-images.server";
import { enqueuePostFederation } from "~/features/fediverse/fediverse.server";
import { enqueuePostWebmentions } from "~/features/webmentions/send.server";
import { recordAudit, type AuditActor } from "~/server/audit.server";
import { bumpContentVersion } from "~/server/content-version.server";
import type { Db } from "~/server/db/client.server";
import { blogPosts, postRedirects } from "~/server/db/schema.server";
import { renderPostBody } from "../content/post-render.server";
import { recordRevision, revisionKind, type RevisionSnapshot } from "./revisions.server";

/**
 * What every write of a post shares — the editor's create and update, the scheduled publish and the
 * importers: the stored columns of its fields, the slug search, and the step that follows the row's
 * write in the same transaction (addresses, revision, publish job, readers, content version, audit).
 */

/** Slugs that would collide with our own routes under /7fs/{category}/. */
const RESERVED_SLUGS = new Set(["new", "rss-xml"]);

export function isReservedSlug(slug: string): boolean {
  return RESERVED_SLUGS.has(slug);
}

/** The slugs a title's base may take, in order: base, base-2, … base-1000, the reserved ones skipped. */
export function* slugCandidates(base: string): Generator<string> {
  for (let n = 1; n <= 1000; n++) {
    const slug = slugCandidate(base, n);
    if (!isReservedSlug(slug)) yield slug;
  }
}

/** Whether a post has this slug (the unique index still decides under concurrency). */
export async function isSlugTaken(db: Db, slug: string): Promise<boolean> {
  const [taken] = await db.select({ id: blogPosts.id }).from(blogPosts).where(eq(blogPosts.slug, slug)).limit(1);
  return taken !== undefined;
}

/** A post's own fields, as the editor and the importers give them. */
export interface PostFields {
  title: string;
  content: string;
  excerpt: string | null;
  featuredImageUrl: string | null;
  featuredImageAlt: string | null;
  category: Category;
  published: boolean;
  featured: boolean;
}

/** The columns a save writes from the fields, the content rendered as the post page shows it (once per save). */
export async function renderedColumns(db: Db, fields: PostFields) {
  const body = await renderPostBody(db, fields.content);
  return {
    title: fields.title,
    content: fields.content,
    contentHtml: body.html,
    contentText: body.text,
    excerpt: fields.excerpt,
    featuredImageUrl: fields.featuredImageUrl,
    featuredImageAlt: fields.featuredImageAlt,
    category: fields.category,
    published: fields.published,
    featured: fields.featured,
  };
}

/** The revision of a post's fields as `authorId` saved them. */
export function revisionOf(postId: string, fields: PostFields, authorId: string | null): RevisionSnapshot {
  return {
    postId,
    title: fields.title,
    excerpt: fields.excerpt,
    content: fields.content,
    featuredImageUrl: fields.featuredImageUrl,
    featuredImageAlt: fields.featuredImageAlt,
    authorId,
  };
}

/**
 * A post now answers at `slug` (under every category, as posts are found by slug): an old address
 * another post left there is the new post's now, so its redirect goes.
 */
async function takeAddress(tx: Db, postId: string, slug: string) {
  await tx.delete(postRedirects).where(and(eq(postRedirects.slug, slug), ne(postRedirects.postId, postId)));
}

interface PublicationState {
  published: boolean;
  scheduledAt: Date | null;
}

export interface PostWrite {
  /** The post as written, in the fields the revision keeps. */
  revision: RevisionSnapshot;
  /** Before the write (null for a new post) and after it. */
  before: PublicationState | null;
  after: PublicationState & { category: Category };
  /** The address the write gave the post; `from` is the one it left, which answers 301 to it from now on. */
  address?: { slug: string; from?: { category: Category; slug: string } };
  /**
   * Brings the publish job in line with the schedule (scheduling.server's syncPublishJob, handed in: that
   * job's handler writes through this step); null for the scheduled publish, which is that job.
   */
  syncSchedule: ((tx: Db, postId: string, previous: Date | null, next: Date | null) => Promise<void>) | null;
  /** Readers hear of it (subscriber emails when it goes live, its share card drawn ahead); imports are old news. */
  announce: { site: CardSite } | null;
  /** The audit row, targeting the post; none for the scheduled publish (no person acts). */
  audit: { actor: AuditActor; action: string; summary: string } | null;
}

/** What follows a post's row write, in the write's transaction: everything commits with the post or not at all. */
export async function afterPostWrite(tx: Db, write: PostWrite): Promise<void> {
  const { postId } = write.revision;
  const { before, after } = write;
  if (write.address) {
    const { slug, from } = write.address;
    if (from)
      await tx
        .insert(postRedirects)
        .values({ category: from.category, slug: from.slug, postId, createdAt: new Date() })
        .onConflictDoUpdate({ target: [postRedirects.slug, postRedirects.category], set: { postId } });
    await takeAddress(tx, postId, slug);
  }
  await recordRevision(tx, revisionKind(before, after), write.revision);
  if (write.syncSchedule) await write.syncSchedule(tx, postId, before?.scheduledAt ?? null, after.scheduledAt);
  if (write.announce) {
    // Emailed once ever, when it is live and its author chose "Publish and email subscribers".
    await emailPostIfChosen(tx, postId);
    await enqueuePostShareImage(tx, postId, write.announce.site);
    // Pages it links to hear of it (Webmention), once per version of a published post.
    await enqueuePostWebmentions(tx, postId);
    // Fediverse followers get it (Create), an edit (Update) or its unpublishing (Delete).
    await enqueuePostFederation(tx, postId);
  }
  await bumpContentVersion(tx);
  if (write.audit) await recordAudit(tx, { ...write.audit, target: { type: "post", id: postId } });
}
