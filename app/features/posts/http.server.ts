import { data } from "react-router";
import { readForm as readAnyForm } from "~/server/form.server";

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

/** The post form, read by the one form reader (app/server/form.server.ts) with the post form's larger limit. */
export function readForm(request: Request, maxBytes = MAX_FORM_BYTES): Promise<FormData> {
  return readAnyForm(request, maxBytes);
}
