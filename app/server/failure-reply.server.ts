/**
 * THE failure reply: one error (typed domain error, or anything else as a logged 500; the mapping is
 * errorAnswer in errors.server) answered in the shape of the kind of request —
 * - a page loader or action: `throwPageFailure`, a thrown `data(message, { status })` the error
 *   boundary shows (a plain HTTP client reads the message as text);
 * - a form action: `formFailure`, the `{ ok: false, error, result }` reply the forms read (field
 *   errors under their fields);
 * - a JSON API: `apiFailure`, `{ error, fieldErrors? }` with the status.
 */
import { data } from "react-router";
import { firstMessage, type FormFailure, type ReplyOptions, type Submission } from "~/lib/forms";
import { isDatabaseUnavailable } from "./db/pg-errors.server";
import { errorAnswer, isAppError, ServiceUnavailableError, type ErrorAnswer } from "./errors.server";
import { requestMemo } from "./request-scope.server";

/**
 * Fields never echoed back into a page after a failed submission (passwords, one-time codes, tokens):
 * every reply below leaves them out, whatever the form.
 */
export const SECRET_FIELDS = [
  "password",
  "currentPassword",
  "newPassword",
  "confirmPassword",
  "token",
  "verificationToken",
  "code",
  "recoveryCode",
  "credential",
];

/** Conform's reply to a submission, without the secret fields' values. */
export function replyWithoutSecrets(submission: Submission<unknown>, options: Omit<ReplyOptions, "hideFields"> = {}) {
  return submission.reply({ ...options, hideFields: SECRET_FIELDS });
}

/**
 * A failed form action (typed domain error → 4xx, anything else a logged 500): the domain's field
 * errors go back under their fields through the same reply the browser's own checks use. With
 * `formError`, the message is also the form's own error (for forms that show it inline rather than
 * in a toast); secret fields are never sent back. Without a submission (the form could not be read) only the message is sent.
 */
export function failureReply(error: unknown, submission?: Submission<unknown>, { formError = true }: { formError?: boolean } = {}) {
  const { status, message, fieldErrors, headers } = errorAnswer(error);
  const result =
    submission && replyWithoutSecrets(submission, { ...(formError ? { formErrors: [message] } : {}), fieldErrors: fieldErrors ?? {} });
  return { status, headers, error: message, result };
}

/**
 * A failed form action as the forms' reply. With `refusals: "page"` (the admin forms) a refusal
 * (401/403) is thrown instead: the error page says why, as the page's own guard would.
 */
export function formFailure(error: unknown, submission?: Submission<unknown>, { refusals = "form" }: { refusals?: "form" | "page" } = {}) {
  if (refusals === "page" && isAppError(error) && (error.status === 401 || error.status === 403)) throwPageFailure(error);
  const { status, headers, error: message, result } = failureReply(error, submission);
  return data<FormFailure>({ ok: false, error: message, ...(result ? { result } : {}) }, { status, headers });
}

/**
 * A submission that failed the schema: 400 with its field errors and the first message. A list button
 * (add, move, remove a row) pressed without JavaScript is no failure: it comes back (200, no message)
 * with the rows changed and nothing saved, for the person to go on editing.
 */
export function invalidSubmission(submission: Submission<unknown>) {
  const result = replyWithoutSecrets(submission);
  if (submission.status === undefined) return data<FormFailure>({ ok: false, error: "", result }, { status: 200 });
  return data<FormFailure>({ ok: false, error: firstMessage(result) ?? "Please check the form.", result }, { status: 400 });
}

/**
 * For a page whose action answers in one sentence (the pages emailed links open): `{ ok, message }`,
 * a failure with its error's status and headers.
 */
export async function messageReply(work: () => Promise<string>) {
  try {
    return { ok: true as const, message: await work() };
  } catch (error) {
    const { status, message, headers } = errorAnswer(error);
    return data({ ok: false as const, message }, { status, headers });
  }
}

/** For resource routes (JSON APIs): `{ error, fieldErrors? }` with the error's status and headers. */
export function apiFailure(error: unknown): Response {
  const { status, message, fieldErrors, headers } = errorAnswer(error);
  return Response.json({ error: message, ...(fieldErrors ? { fieldErrors } : {}) }, { status, headers });
}

/** A thrown Response (a redirect) or `data()` is already an answer and passes through untouched. */
function isRouteAnswer(error: unknown): boolean {
  return (
    error instanceof Response || (typeof error === "object" && error !== null && "type" in error && error.type === "DataWithResponseInit")
  );
}

/**
 * For page loaders and actions: throws the error as `data(message, { status })`, which the error
 * boundary shows with the real status (and a plain HTTP client reads as text).
 */
export function throwPageFailure(error: unknown): never {
  if (isRouteAnswer(error)) throw error;
  const { status, message, headers } = errorAnswer(error);
  throw data(message, { status, headers });
}

/** Runs a page loader's or action's work; a typed error it throws becomes the page's status and message. */
export async function withPageFailures<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throwPageFailure(error);
  }
}

/** Epic Stack's guard: unless `condition` holds, throw `data(message, init)` (status 400 by default). */
export function invariantResponse(condition: unknown, message: string, init?: ResponseInit): asserts condition {
  if (!condition) throw data(message, { status: 400, ...init });
}

const unavailable = requestMemo<{ answer?: ErrorAnswer }>();

/**
 * For React Router's handleError (app/entry.server.tsx): a loader's error that no failure reply
 * answered. React Router answers every such error 500; when it says a part is away (the database),
 * the request is noted so its answer becomes errorAnswer's 503 with Retry-After (unavailableAnswer).
 * Returns whether it was noted (and logged).
 */
export function noteUnavailable(request: Request, error: unknown): boolean {
  if (!(error instanceof ServiceUnavailableError) && !isDatabaseUnavailable(error)) return false;
  unavailable(request, () => ({})).answer = errorAnswer(error);
  return true;
}

/** The 503 answer noted for this request by noteUnavailable, if any. */
export function unavailableAnswer(request: Request): ErrorAnswer | undefined {
  return unavailable(request, () => ({})).answer;
}

/**
 * React Router's 500 for a request noted unavailable (or the error page app/entry.server.tsx already
 * rendered with its status), as the 503 with Retry-After it is; any other response as it is.
 */
export function answerUnavailable(request: Request, response: Response): Response {
  const answer = response.status >= 500 ? unavailableAnswer(request) : undefined;
  if (!answer) return response;
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(answer.headers)) headers.set(name, value);
  headers.set("Cache-Control", "no-store");
  return new Response(response.body, { status: answer.status, statusText: "Service Unavailable", headers });
}
