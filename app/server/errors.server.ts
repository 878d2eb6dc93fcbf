import type { z } from "zod";
import { fieldErrorsOf, type FieldErrors } from "~/lib/field-errors";
import { isDatabaseUnavailable, isDiskFull } from "./db/pg-errors.server";
import { logger } from "./logger.server";

/** Typed errors that domain code throws; `errorAnswer` (below) maps them to answers in one place. */
export class AppError extends Error {
  constructor(
    message: string,
    public readonly status: number,
    public readonly fieldErrors?: FieldErrors,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class ValidationError extends AppError {
  constructor(message: string, fieldErrors?: FieldErrors) {
    super(message, 400, fieldErrors);
  }
}

/**
 * Parses domain input or throws a ValidationError: the field errors of `fieldErrorsOf` and, as its
 * message, `message` or else the first issue's.
 */
export function parseOrThrow<T extends z.ZodType>(schema: T, input: unknown, message?: string): z.output<T> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw new ValidationError(message ?? result.error.issues[0]?.message ?? "Please check the form.", fieldErrorsOf(result.error));
}
export const NOT_SIGNED_IN = "You must be logged in";
export const NOT_PERMITTED = "You don't have permission to do that.";

export class UnauthorizedError extends AppError {
  constructor(message = NOT_SIGNED_IN) {
    super(message, 401);
  }
}
export class ForbiddenError extends AppError {
  constructor(message = NOT_PERMITTED) {
    super(message, 403);
  }
}
export class NotFoundError extends AppError {
  constructor(message = "Not found") {
    super(message, 404);
  }
}
export class ConflictError extends AppError {
  constructor(message: string) {
    super(message, 409);
  }
}
export class RateLimitError extends AppError {
  constructor(
    message = "Too many attempts. Please wait a few minutes and try again.",
    public readonly retryAfterSeconds = 60,
  ) {
    super(message, 429);
  }
}

/** How long a client is asked to wait before trying again while a part is away. */
export const RETRY_AFTER_UNAVAILABLE_SECONDS = 15;
export const DATABASE_UNAVAILABLE = "The site cannot reach its database right now. Please try again in a minute.";

/**
 * A part the site depends on (the database, the file storage) cannot be reached right now: 503 with
 * Retry-After, so browsers, clients and proxies know to try again rather than give up.
 */
export class ServiceUnavailableError extends AppError {
  constructor(
    message: string,
    public readonly retryAfterSeconds = RETRY_AFTER_UNAVAILABLE_SECONDS,
  ) {
    super(message, 503);
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}

/** What any caller answers for an error: status, a sentence a person can act on, field errors, headers. */
export interface ErrorAnswer {
  status: number;
  message: string;
  fieldErrors?: FieldErrors;
  headers: Record<string, string>;
}

/**
 * A write refused because the server's disk is full (507 Insufficient Storage): what was stored before
 * is kept, reads go on, and the same request succeeds once space is freed.
 */
export const DISK_FULL =
  "The server's disk is full, so this was not saved. Nothing saved before is lost. Free some disk space on the server (or ask whoever runs it to), then try again.";

export const UNEXPECTED_ERROR = "Something went wrong on our side. Please try again.";
export const TEXT_NUL_REFUSED = "Text cannot contain NUL characters (\\0). Remove them and try again.";

// PostgreSQL's refusals of text it cannot store (a NUL byte, an invalid escape): the input's fault, so
// a 400 wherever such text slipped past the form readers (a path segment, a header).
const UNSTORABLE_TEXT_CODES = new Set(["22021", "22P05"]);

function isUnstorableText(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === "object" && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && UNSTORABLE_TEXT_CODES.has(code)) return true;
  }
  return false;
}

/**
 * THE mapping from an error to an answer; every adapter below and every route that renders its own
 * failure uses it. Unknown errors are logged here (once) and become a plain 500 without details.
 */
export function errorAnswer(error: unknown): ErrorAnswer {
  if (isAppError(error)) {
    return {
      status: error.status,
      message: error.message,
      ...(error.fieldErrors ? { fieldErrors: error.fieldErrors } : {}),
      headers:
        error instanceof RateLimitError || error instanceof ServiceUnavailableError
          ? { "Retry-After": String(error.retryAfterSeconds) }
          : {},
    };
  }
  if (isDatabaseUnavailable(error)) {
    // One line, not the stack: an outage makes every request fail the same way.
    logger.warn({ reason: error instanceof Error ? error.message : String(error) }, "database unavailable");
    return { status: 503, message: DATABASE_UNAVAILABLE, headers: { "Retry-After": String(RETRY_AFTER_UNAVAILABLE_SECONDS) } };
  }
  if (isDiskFull(error)) {
    logger.error({ reason: error instanceof Error ? error.message : String(error) }, "disk full: a write was refused");
    return { status: 507, message: DISK_FULL, headers: { "Retry-After": String(RETRY_AFTER_UNAVAILABLE_SECONDS) } };
  }
  if (isUnstorableText(error)) {
    logger.warn("refused text the database cannot store");
    return { status: 400, message: TEXT_NUL_REFUSED, headers: {} };
  }
  logger.error({ err: error }, "unexpected error");
  return { status: 500, message: UNEXPECTED_ERROR, headers: {} };
}
