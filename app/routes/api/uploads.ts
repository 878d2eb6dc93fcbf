import { authorizeUpload, saveImages } from "~/features/uploads/uploads.server";
import { getSessionUser } from "~/features/auth/session.server";
import { getDb } from "~/server/db/client.server";
import { toResponse, ValidationError } from "~/server/errors.server";
import { formatBytes, LIMITS, UPLOAD_REQUEST_BYTES } from "~/server/limits.server";
import type { Route } from "./+types/uploads";
import { requireTwoFactorForStaffApi } from "~/features/admin/two-factor-guard.server";

/** POST /api/uploads — multipart `files` (several images); staff only. Answers { images: [{id,url,srcSet,width,height}] }. */
// While the site requires 2FA of staff, a staff member without it is refused here too (issue 15).
export const middleware: Route.MiddlewareFunction[] = [({ request }) => requireTwoFactorForStaffApi(request)];

export async function action({ request }: Route.ActionArgs) {
  try {
    const user = await getSessionUser(request);
    authorizeUpload(user);
    const length = Number(request.headers.get("content-length") ?? "NaN");
    if (!Number.isFinite(length)) return Response.json({ error: "The upload must declare its size (Content-Length)." }, { status: 411 });
    if (length > UPLOAD_REQUEST_BYTES) {
      return Response.json(
        { error: `The upload is too large: at most ${LIMITS.imagesPerUpload} images of ${formatBytes(LIMITS.image)} each.` },
        { status: 413 },
      );
    }
    if (!request.headers.get("content-type")?.startsWith("multipart/form-data"))
      throw new ValidationError("Send the images as multipart/form-data.");
    let form: FormData;
    try {
      form = await request.formData();
    } catch {
      throw new ValidationError("The upload could not be read. Please try again.");
    }
    const files: { name: string; bytes: Buffer }[] = [];
    for (const entry of form.getAll("files")) {
      if (typeof entry === "string") throw new ValidationError("Only files may be sent in `files`.");
      if (entry.size > LIMITS.image) throw new ValidationError(`${entry.name.slice(0, 100)} is larger than ${formatBytes(LIMITS.image)}.`);
      files.push({ name: entry.name, bytes: Buffer.from(await entry.arrayBuffer()) });
    }
    const images = await saveImages(getDb(), user, files);
    return Response.json({ images }, { status: 201 });
  } catch (error) {
    return toResponse(error);
  }
}

// No loader: GET/HEAD and other methods are answered 405 (JSON, with Allow) by server/app.ts.
