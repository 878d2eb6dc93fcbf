import { getSessionUser } from "~/features/auth/session.server";
import { authorizeResumeUpload, saveResume } from "~/features/uploads/documents.server";
import { getDb } from "~/server/db/client.server";
import { toResponse, ValidationError } from "~/server/errors.server";
import { formatBytes, LIMITS } from "~/server/limits.server";
import type { Route } from "./+types/uploads-resume";

/** POST /api/uploads/resume — multipart `file` (one PDF); admins only. Answers { url } for the Resume link. */
export async function action({ request }: Route.ActionArgs) {
  try {
    const user = await getSessionUser(request);
    authorizeResumeUpload(user);
    const length = Number(request.headers.get("content-length") ?? "NaN");
    if (!Number.isFinite(length)) return Response.json({ error: "The upload must declare its size (Content-Length)." }, { status: 411 });
    if (length > LIMITS.document + LIMITS.uploadOverhead) {
      return Response.json({ error: `The file is too large: at most ${formatBytes(LIMITS.document)}.` }, { status: 413 });
    }
    if (!request.headers.get("content-type")?.startsWith("multipart/form-data"))
      throw new ValidationError("Send the file as multipart/form-data.");
    let form: FormData;
    try {
      form = await request.formData();
    } catch {
      throw new ValidationError("The upload could not be read. Please try again.");
    }
    const entry = form.get("file");
    if (entry === null || typeof entry === "string") throw new ValidationError("Choose a PDF file to upload.");
    const saved = await saveResume(getDb(), user, { name: entry.name, bytes: Buffer.from(await entry.arrayBuffer()) });
    return Response.json(saved, { status: 201 });
  } catch (error) {
    return toResponse(error);
  }
}

// No loader: GET/HEAD and other methods are answered 405 (JSON, with Allow) by server/app.ts.
