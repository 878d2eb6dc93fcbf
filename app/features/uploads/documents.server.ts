import { canManageSettings, type Actor } from "~/lib/permissions";
import { recordAudit } from "~/server/audit.server";
import { authorize } from "~/server/authorize.server";
import type { Db } from "~/server/db/client.server";
import { uploads } from "~/server/db/schema.server";
import { ValidationError } from "~/server/errors.server";
import { formatBytes, LIMITS } from "~/server/limits.server";
import { logger } from "~/server/logger.server";
import { getStorage } from "~/server/storage.server";
import { keyFor } from "./uploads.server";

/** Uploaded documents (the resume) live apart from images and are always served by the app, as downloads. */
export const DOCUMENTS_BUCKET = "documents";
export const RESUME_FORBIDDEN = "Only administrators can upload the resume.";

const PDF_MAGIC = Buffer.from("%PDF-", "latin1");

/** A PDF starts with `%PDF-` (checked on the bytes, never the name or the declared type). */
export function isPdf(bytes: Buffer): boolean {
  return bytes.byteLength > PDF_MAGIC.byteLength && bytes.subarray(0, PDF_MAGIC.byteLength).equals(PDF_MAGIC);
}

/** Who may upload the resume; the route also asks before it reads the body. */
export function authorizeResumeUpload(actor: Actor | null | undefined): asserts actor is Actor {
  authorize(actor, canManageSettings, RESUME_FORBIDDEN, "You must be logged in to upload files");
}

/** Stores a resume PDF and records it in `uploads`; answers the site path the settings' Resume link takes. */
export async function saveResume(db: Db, actor: Actor | null, file: { name: string; bytes: Buffer }): Promise<{ url: string }> {
  authorizeResumeUpload(actor);
  const label = file.name.slice(0, 100) || "The file";
  if (file.bytes.byteLength === 0) throw new ValidationError(`${label} is empty.`);
  if (file.bytes.byteLength > LIMITS.document) throw new ValidationError(`${label} is larger than ${formatBytes(LIMITS.document)}.`);
  if (!isPdf(file.bytes)) throw new ValidationError(`${label} is not a PDF file.`);
  const { key } = keyFor(actor.id, "pdf", DOCUMENTS_BUCKET);
  await getStorage().put(key, file.bytes, "application/pdf");
  await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(uploads)
      .values({
        userId: actor.id,
        bucket: DOCUMENTS_BUCKET,
        storageKey: key,
        contentType: "application/pdf",
        byteSize: file.bytes.byteLength,
        width: 0,
        height: 0,
        originalName: file.name.slice(0, 255) || null,
      })
      .returning({ id: uploads.id });
    await recordAudit(tx, { actor, action: "upload.create", target: { type: "upload", id: row?.id }, summary: `${key} (resume)` });
  });
  logger.info({ userId: actor.id, key, bytes: file.bytes.byteLength }, "resume uploaded");
  return { url: `/uploads/${key}` };
}

/**
 * Content-Disposition of the resume download, named after the owner (or the site): an ASCII
 * `filename` for old clients and the exact name as RFC 5987 `filename*`.
 */
export function resumeDisposition(name: string): string {
  const base = name.trim() || "Resume";
  const full = `${base} Resume.pdf`;
  const ascii =
    full
      .normalize("NFKD")
      .replace(/[^A-Za-z0-9 ._-]/g, "")
      .replace(/\s+/g, " ")
      .trim() || "Resume.pdf";
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(full)}`;
}
