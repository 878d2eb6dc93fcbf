import { logger } from "./logger.server";

/** Typed errors that domain code throws; `toResponse` maps them to status codes in one place. */
export class AppError extends Error {
  constructor(
    message: string,
    public readonly status: number,
    public readonly fieldErrors?: Record<string, string[]>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class ValidationError extends AppError {
  constructor(message: string, fieldErrors?: Record<string, string[]>) {
    super(message, 400, fieldErrors);
  }
}
export class UnauthorizedError extends AppError {
  constructor(message = "You must be logged in") {
    super(message, 401);
  }
}
export class ForbiddenError extends AppError {
  constructor(message = "You don't have permission to do that.") {
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

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}

/** JSON body and status for an error; unknown errors become a plain 500 without details. */
export function errorBody(error: unknown): { status: number; body: { error: string; fieldErrors?: Record<string, string[]> } } {
  if (isAppError(error)) {
    return { status: error.status, body: { error: error.message, ...(error.fieldErrors ? { fieldErrors: error.fieldErrors } : {}) } };
  }
  logger.error({ err: error }, "unexpected error");
  return { status: 500, body: { error: "Something went wrong on our side. Please try again." } };
}
