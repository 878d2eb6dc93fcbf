import { getSessionUser } from "~/features/auth/session.server";
import { authorizeResumeUpload, saveResume } from "~/features/uploads/documents.server";
import { getDb } from "~/server/db/client.server";
import { AppError, ValidationError } from "~/server/errors.server";
import { apiFailure } from "~/server/failure-reply.server";
import { formatBytes, LIMITS } from "~/server/limits.server";
import { parseMultipart } from "~/server/multipart.server";
import type { Route } from "./+types/uploads-resume";
import { requireTwoFactorForStaff } from "~/features/auth/guards.server";

// While the site requires 2FA of staff, a staff member without it is refused here too, like every staff write.
export const middleware: Route.MiddlewareFunction[] = [({ request }) => requireTwoFactorForStaff(request, "api")];

const REQUEST_BYTES = LIMITS.document + LIMITS.uploadOverhead;
const tooLarge = () => new AppError(`The file is too large: at most ${formatBytes(LIMITS.document)}.`, 413);

/** POST /api/uploads/resume — multipart `file` (one PDF); admins only. Answers { url } for the Resume link. */
export async function action({ request }: Route.ActionArgs) {
  try {
    const user = await getSessionUser(request);
    authorizeResumeUpload(user);
    const length = Number(request.headers.get("content-length") ?? "NaN");
    if (!Number.isFinite(length)) return Response.json({ error: "The upload must declare its size (Content-Length)." }, { status: 411 });
    if (length > REQUEST_BYTES) return apiFailure(tooLarge());
    if (!request.headers.get("content-type")?.startsWith("multipart/form-data"))
      throw new ValidationError("Send the file as multipart/form-data.");
    // Read as it arrives, like the images: at most the one file is ever held, and the size limit
    // (the same as the declared length's) stops the read when it is passed. saveResume checks the PDF.
    let file: { name: string; bytes: Buffer } | undefined;
    await parseMultipart(
      request,
      { maxFiles: 1, maxFileSize: REQUEST_BYTES, maxTotalSize: REQUEST_BYTES, maxParts: 10 },
      { fileTooLarge: tooLarge, tooManyFiles: () => new ValidationError("Upload one PDF file at a time."), tooLarge },
      async (upload) => {
        if (upload.fieldName === "file") file = { name: upload.name, bytes: Buffer.from(await upload.arrayBuffer()) };
      },
    );
    if (!file) throw new ValidationError("Choose a PDF file to upload.");
    const saved = await saveResume(getDb(), user, file);
    return Response.json(saved, { status: 201 });
  } catch (error) {
    return apiFailure(error);
  }
}

// No loader: GET/HEAD and other methods are answered 405 (JSON, with Allow) by server/app.ts.
