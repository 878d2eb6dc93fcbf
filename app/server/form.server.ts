import { AppError, TEXT_NUL_REFUSED, ValidationError } from "./errors.server";
import { formatBytes, LIMITS } from "./limits.server";

const FORM_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data"];

function tooLarge(maxBytes: number): AppError {
  return new AppError(`The form is too large (at most ${formatBytes(maxBytes)}). Please shorten it.`, 413);
}

/**
 * THE form reader: the form post, or an AppError a person can act on — 413 for an oversized body,
 * 415 for a body that is not a form, 400 for one that cannot be parsed. Never a 500. (Another
 * method never gets here: the app-wide guard in server/app.ts answers it with 405.)
 */
export async function readForm(request: Request, maxBytes: number = LIMITS.form): Promise<FormData> {
  const length = Number(request.headers.get("content-length") ?? "0");
  if (Number.isFinite(length) && length > maxBytes) {
    throw tooLarge(maxBytes);
  }
  const type = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase() ?? "";
  if (!FORM_TYPES.includes(type)) {
    throw new AppError("Send the form as application/x-www-form-urlencoded or multipart/form-data.", 415);
  }
  // Without a Content-Length (chunked), cap what is read.
  const body = await readBodyUpTo(request, maxBytes);
  if (!body) throw tooLarge(maxBytes);
  let form: FormData;
  try {
    form = await new Response(body, { headers: { "content-type": request.headers.get("content-type") ?? type } }).formData();
  } catch {
    throw new AppError("The form could not be read. Please reload the page and try again.", 400);
  }
  for (const [name, value] of form) {
    if (holdsNul(name) || (typeof value === "string" && holdsNul(value))) throw new ValidationError(TEXT_NUL_REFUSED);
  }
  return form;
}

/**
 * Whether text, or any text in a parsed JSON value, holds a NUL: PostgreSQL stores no NUL in text, so
 * the readers refuse it with a 400 before any rule or query sees it. Walked without recursion.
 */
export function holdsNul(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === "string") {
      if (item.includes("\u0000")) return true;
    } else if (Array.isArray(item)) {
      for (const inner of item) stack.push(inner);
    } else if (item && typeof item === "object") {
      for (const [key, inner] of Object.entries(item)) stack.push(key, inner);
    }
  }
  return false;
}

/** THE JSON body reader: the parsed body, or a 400 for one that is not JSON or holds a NUL. */
export async function readJson(request: Request, maxBytes: number = LIMITS.form): Promise<unknown> {
  const body = await readBodyUpTo(request, maxBytes);
  if (!body) throw tooLarge(maxBytes);
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder().decode(body));
  } catch {
    throw new ValidationError("Request body must be JSON");
  }
  if (holdsNul(parsed)) throw new ValidationError(TEXT_NUL_REFUSED);
  return parsed;
}

/**
 * A request's or response's body, read as it streams in; null as soon as it passes `maxBytes` (the rest is never
 * buffered). A request's stream is only released, not cancelled: cancelling destroys the socket before the answer is
 * sent, and Node discards the rest after the response. A fetched response's stream is cancelled to stop the download.
 */
export async function readBodyUpTo(
  message: { body: ReadableStream<Uint8Array> | null },
  maxBytes: number,
  { cancelOnOverflow = false }: { cancelOnOverflow?: boolean } = {},
): Promise<Uint8Array<ArrayBuffer> | null> {
  if (!message.body) return new Uint8Array(0);
  const reader = message.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      if (cancelOnOverflow) await reader.cancel();
      else reader.releaseLock();
      return null;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(new ArrayBuffer(total));
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}
