import { and, desc, eq, notInArray } from "drizzle-orm";
import { canUpdatePost, type Actor } from "~/lib/permissions";
import type { Db } from "~/server/db/client.server";
import { postRevisions, REVISION_KINDS, user } from "~/server/db/schema.server";
import { getEnv } from "~/server/env.server";
import { z } from "zod";
import { authorize } from "~/server/authorize.server";
import { NotFoundError } from "~/server/errors.server";

export type RevisionKind = (typeof REVISION_KINDS)[number];

export interface RevisionSnapshot {
  postId: string;
  title: string;
  excerpt: string | null;
  content: string;
  featuredImageUrl: string | null;
  featuredImageAlt: string | null;
  authorId: string | null;
}

/**
 * The kind of a save's revision: a schedule, a publication or its withdrawal, else a plain save.
 * `before` is null for a new post (which counts as unpublished).
 */
export function revisionKind(before: { published: boolean } | null, after: { published: boolean; scheduledAt: Date | null }): RevisionKind {
  if (after.scheduledAt) return "schedule";
  if (after.published !== (before?.published ?? false)) return after.published ? "publish" : "unpublish";
  return "save";
}

/**
 * Stores a revision in the caller's transaction (the save, publish or unpublish it records) and drops
 * the post's revisions beyond the newest POST_REVISIONS_KEEP.
 */
export async function recordRevision(tx: Db, kind: RevisionKind, snapshot: RevisionSnapshot): Promise<void> {
  await tx.insert(postRevisions).values({ ...snapshot, kind });
  const keep = tx
    .select({ id: postRevisions.id })
    .from(postRevisions)
    .where(eq(postRevisions.postId, snapshot.postId))
    .orderBy(desc(postRevisions.createdAt), desc(postRevisions.id))
    .limit(getEnv().POST_REVISIONS_KEEP);
  await tx.delete(postRevisions).where(and(eq(postRevisions.postId, snapshot.postId), notInArray(postRevisions.id, keep)));
}

export interface RevisionListItem {
  id: string;
  kind: RevisionKind;
  title: string;
  excerpt: string | null;
  content: string;
  featuredImageUrl: string | null;
  featuredImageAlt: string | null;
  authorEmail: string | null;
  createdAt: Date;
}

/** A post's revisions, newest first, for its editors (the same people who may update it). */
export async function listRevisions(db: Db, actor: Actor | null, postId: string): Promise<RevisionListItem[]> {
  authorize(actor, canUpdatePost, "You don't have permission to see this post's revisions.");
  if (!z.uuid().safeParse(postId).success) throw new NotFoundError("That post no longer exists.");
  return db
    .select({
      id: postRevisions.id,
      kind: postRevisions.kind,
      title: postRevisions.title,
      excerpt: postRevisions.excerpt,
      content: postRevisions.content,
      featuredImageUrl: postRevisions.featuredImageUrl,
      featuredImageAlt: postRevisions.featuredImageAlt,
      authorEmail: user.email,
      createdAt: postRevisions.createdAt,
    })
    .from(postRevisions)
    .leftJoin(user, eq(user.id, postRevisions.authorId))
    .where(eq(postRevisions.postId, postId))
    .orderBy(desc(postRevisions.createdAt), desc(postRevisions.id));
}

/** The revisions API's answer (posts' and pages' editors read the same shape): newest first, never stored by caches. */
export function revisionsAnswer(revisions: ReadonlyArray<{ createdAt: Date }>): Response {
  return Response.json(
    { revisions: revisions.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })) },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}
