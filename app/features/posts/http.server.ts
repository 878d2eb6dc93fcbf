import { data } from "react-router";
import { ValidationError } from "~/server/errors.server";

export const READ_ONLY_MESSAGE = "This address only answers GET requests.";

/** A 405 for resource routes (feeds, files): JSON with a sentence a person can act on. */
export function methodNotAllowedJson(allow = "GET, HEAD"): Response {
  return Response.json({ error: READ_ONLY_MESSAGE }, { status: 405, headers: { Allow: allow } });
}

/** A 405 for page routes: thrown, so the error page shows the message with the real status. */
export function methodNotAllowedPage(allow = "GET, HEAD"): never {
  throw data(READ_ONLY_MESSAGE, { status: 405, headers: { Allow: allow } });
}

/**
 * The submitted form, or a 400 ValidationError when the body is missing, not a form or malformed
 * (request.formData() throws a TypeError then, which must not become a 500).
 */
export async function readForm(request: Request): Promise<FormData> {
  const type = request.headers.get("content-type") ?? "";
  if (!type.startsWith("application/x-www-form-urlencoded") && !type.startsWith("multipart/form-data")) {
    throw new ValidationError("Send the form as application/x-www-form-urlencoded or multipart/form-data.");
  }
  try {
    return await request.formData();
  } catch {
    throw new ValidationError("The form could not be read. Please reload the page and try again.");
  }
}
