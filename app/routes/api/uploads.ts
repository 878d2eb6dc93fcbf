import { getSessionUser } from "~/features/auth/session.server";
import { startImageBatch } from "~/features/uploads/uploads.server";
import { getDb } from "~/server/db/client.server";
import { z } from "zod";
import { ALT_MAX, ALT_TOO_LONG } from "~/features/media/media";
import { AppError, parseOrThrow, ValidationError } from "~/server/errors.server";
import { apiFailure } from "~/server/failure-reply.server";
import { formatBytes, LIMITS, UPLOAD_REQUEST_BYTES } from "~/server/limits.server";
import { parseMultipart } from "~/server/multipart.server";
import type { Route } from "./+types/uploads";
import { requireTwoFactorForStaff } from "~/features/auth/guards.server";

const TOO_LARGE = `The upload is too large: at most ${LIMITS.imagesPerUpload} images of ${formatBytes(LIMITS.image)} each.`;

/** `alt`: optional alt text kept with every image of the request (the Insert image dialog's). */
const uploadFieldsSchema = z.object({ alt: z.string("Alt text must be text.").max(ALT_MAX, ALT_TOO_LONG).default("") });

// While the site requires 2FA of staff, a staff member without it is refused here too.
export const middleware: Route.MiddlewareFunction[] = [({ request }) => requireTwoFactorForStaff(request, "api")];

/**
 * POST /api/uploads — multipart `files` (several images) and an optional `alt`; staff only. Answers
 * { images: [{id,url,alt,srcSet,width,height}] }.
 * The body is read as it arrives: each image is checked, re-encoded and stored before the next one is
 * read, so a request holds at most one image in memory, and a limit is enforced the moment it is passed.
 */
export async function action({ request }: Route.ActionArgs) {
  try {
    const user = await getSessionUser(request);
    const batch = startImageBatch(user);
    const length = Number(request.headers.get("content-length") ?? "NaN");
    if (!Number.isFinite(length)) return Response.json({ error: "The upload must declare its size (Content-Length)." }, { status: 411 });
    if (length > UPLOAD_REQUEST_BYTES) return Response.json({ error: TOO_LARGE }, { status: 413 });
    if (!request.headers.get("content-type")?.startsWith("multipart/form-data"))
      throw new ValidationError("Send the images as multipart/form-data.");
    try {
      const form = await parseMultipart(
        request,
        { maxFiles: LIMITS.imagesPerUpload, maxFileSize: LIMITS.image, maxTotalSize: UPLOAD_REQUEST_BYTES, maxParts: 50 },
        {
          fileTooLarge: () => new ValidationError(`Each image must be at most ${formatBytes(LIMITS.image)}.`),
          tooManyFiles: () => new ValidationError(`Upload at most ${LIMITS.imagesPerUpload} images at a time.`),
          tooLarge: () => new AppError(TOO_LARGE, 413),
        },
        async (file) => {
          if (file.fieldName !== "files") return;
          await batch.add({ name: file.name, bytes: Buffer.from(await file.arrayBuffer()) });
        },
      );
      if (form.getAll("files").some((entry) => typeof entry === "string")) throw new ValidationError("Only files may be sent in `files`.");
      const { alt } = parseOrThrow(uploadFieldsSchema, { alt: form.get("alt") ?? undefined });
      const images = await batch.commit(getDb(), alt);
      return Response.json({ images }, { status: 201 });
    } catch (error) {
      await batch.discard();
      throw error;
    }
  } catch (error) {
    return apiFailure(error);
  }
}

// No loader: GET/HEAD and other methods are answered 405 (JSON, with Allow) by server/app.ts.
