import { MAX_IMAGE_BYTES } from "~/features/uploads/images.server";
import { authorizeUpload, MAX_FILES_PER_UPLOAD, saveImages } from "~/features/uploads/uploads.server";
import { getSessionUser } from "~/features/auth/session.server";
import { getDb } from "~/server/db/client.server";
import { toResponse, ValidationError } from "~/server/errors.server";
import type { Route } from "./+types/uploads";

/** The whole request may hold the file limit's worth of images plus multipart overhead. */
const MAX_REQUEST_BYTES = MAX_FILES_PER_UPLOAD * MAX_IMAGE_BYTES + 64 * 1024;

/** POST /api/uploads — multipart `files` (several images); staff only. Answers { images: [{id,url,srcSet,width,height}] }. */
export async function action({ request }: Route.ActionArgs) {
  try {
    const user = await getSessionUser(request);
    authorizeUpload(user);
    const length = Number(request.headers.get("content-length") ?? "NaN");
    if (!Number.isFinite(length)) return Response.json({ error: "The upload must declare its size (Content-Length)." }, { status: 411 });
    if (length > MAX_REQUEST_BYTES) {
      return Response.json({ error: `The upload is too large: at most ${MAX_FILES_PER_UPLOAD} images of ${MAX_IMAGE_BYTES / 1024 / 1024} MB each.` }, { status: 413 });
    }
    if (!request.headers.get("content-type")?.startsWith("multipart/form-data")) throw new ValidationError("Send the images as multipart/form-data.");
    let form: FormData;
    try {
      form = await request.formData();
    } catch {
      throw new ValidationError("The upload could not be read. Please try again.");
    }
    const files: { name: string; bytes: Buffer }[] = [];
    for (const entry of form.getAll("files")) {
      if (typeof entry === "string") throw new ValidationError("Only files may be sent in `files`.");
      if (entry.size > MAX_IMAGE_BYTES) throw new ValidationError(`${entry.name.slice(0, 100)} is larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MB.`);
      files.push({ name: entry.name, bytes: Buffer.from(await entry.arrayBuffer()) });
    }
    const images = await saveImages(getDb(), user, files);
    return Response.json({ images }, { status: 201 });
  } catch (error) {
    return toResponse(error);
  }
}

// No loader: GET/HEAD and other methods are answered 405 (JSON, with Allow) by server/app.ts.
