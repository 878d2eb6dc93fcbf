import { data } from "react-router";
import { AppError, ValidationError } from "~/server/errors.server";

export const READ_ONLY_MESSAGE = "This address only answers GET requests.";

/** A 405 for resource routes (feeds, files): JSON with a sentence a person can act on. */
export function methodNotAllowedJson(allow = "GET, HEAD"): Response {
  return Response.json({ error: READ_ONLY_MESSAGE }, { status: 405, headers: { Allow: allow } });
}

/** A 405 for page routes: thrown, so the error page shows the message with the real status. */
export function methodNotAllowedPage(allow = "GET, HEAD"): never {
  throw data(READ_ONLY_MESSAGE, { status: 405, headers: { Allow: allow } });
}

/** Largest post form accepted: 100,000 characters of content percent-encoded, with room to spare. */
export const MAX_FORM_BYTES = 2 * 1024 * 1024;

const tooLarge = (max: number) => new AppError(`The form is too large (at most ${max / 1024 / 1024} MB). Please shorten the content.`, 413);

/**
 * The submitted form, or a 4xx AppError when the body is missing, not a form, malformed (request.formData()
 * throws a TypeError then, which must not become a 500) or larger than `maxBytes` (checked while reading,
 * so a huge or chunked body is never buffered whole).
 */
export async function readForm(request: Request, maxBytes = MAX_FORM_BYTES): Promise<FormData> {
  const type = request.headers.get("content-type") ?? "";
  if (!type.startsWith("application/x-www-form-urlencoded") && !type.startsWith("multipart/form-data")) {
    throw new ValidationError("Send the form as application/x-www-form-urlencoded or multipart/form-data.");
  }
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes);
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        // Not cancel(): that destroys the socket before the answer is sent; Node discards the rest after the response.
        reader.releaseLock();
        throw tooLarge(maxBytes);
      }
      chunks.push(value);
    }
  }
  try {
    return await new Response(Buffer.concat(chunks), { headers: { "content-type": type } }).formData();
  } catch {
    throw new ValidationError("The form could not be read. Please reload the page and try again.");
  }
}
