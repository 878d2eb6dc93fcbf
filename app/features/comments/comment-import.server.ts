import { eq } from "drizzle-orm";
import { z } from "zod";
import { emailSchema } from "~/lib/email";
import { bumpContentVersion } from "~/server/content-version.server";
import type { Db } from "~/server/db/client.server";
import { comments } from "~/server/db/schema.server";
import { renderCommentMarkdown } from "./comment-markdown.server";
import { commentFieldsSchema } from "./comment-schema";

/**
 * A comment brought from another blog (WordPress, Ghost): the same limits as a reader's comment, with
 * what old blogs allow and our form does not — no email (an anonymous comment) and no name
 * ("Anonymous"). Its body is Markdown, rendered by the comments' own subset like any other.
 */
export const importedCommentSchema = z.object({
  postId: z.uuid(),
  parentId: z.uuid().nullable(),
  name: z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? "Anonymous" : v), commentFieldsSchema.shape.name),
  /** Kept only when it is a valid address: it then links the comment to its author (auto-approve, reply mail). */
  email: z.string().transform((v) => {
    const parsed = emailSchema.safeParse(v.trim());
    return parsed.success ? parsed.data.toLowerCase() : "";
  }),
  url: z.string().transform((v) => commentFieldsSchema.shape.url.safeParse(v).data ?? null),
  body: commentFieldsSchema.shape.body,
  state: z.enum(["approved", "pending"]),
  ip: z.string().trim().max(64).nullable(),
  createdAt: z.date(),
});
export type ImportedComment = z.input<typeof importedCommentSchema>;

/**
 * Stores an imported comment as it was on the old blog (approved or waiting), never through the filters
 * or the owner's mail: the old blog's moderator already decided. `after` runs in the same transaction
 * (the importer's mapping). Throws the schema's error for a comment that does not fit.
 */
export async function insertImportedComment(
  db: Db,
  input: ImportedComment,
  siteUrl: string,
  after: (tx: Db, id: string) => Promise<void>,
): Promise<string> {
  const c = importedCommentSchema.parse(input);
  const bodyHtml = await renderCommentMarkdown(c.body, siteUrl);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(comments)
      .values({
        postId: c.postId,
        parentId: c.parentId,
        authorName: c.name,
        authorEmail: c.email,
        authorUrl: c.url,
        body: c.body,
        bodyHtml,
        state: c.state,
        reason: c.state === "pending" ? "Imported waiting for moderation" : null,
        ipAddress: c.ip,
        createdAt: c.createdAt,
        updatedAt: c.createdAt,
        approvedAt: c.state === "approved" ? c.createdAt : null,
      })
      .returning({ id: comments.id });
    if (!row) throw new Error("comment insert returned no row");
    if (c.state === "approved") await bumpContentVersion(tx);
    await after(tx, row.id);
    return row.id;
  });
}

export async function commentExists(db: Db, id: string): Promise<boolean> {
  const [row] = await db.select({ id: comments.id }).from(comments).where(eq(comments.id, id)).limit(1);
  return row !== undefined;
}
