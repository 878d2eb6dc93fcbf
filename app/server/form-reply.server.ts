import { data } from "react-router";
import { firstMessage, type FormFailure, type Submission } from "~/lib/forms";
import { errorAnswer } from "./errors.server";

/**
 * A failed form action (typed domain error → 4xx, anything else a logged 500): the domain's field
 * errors go back under their fields through the same reply the browser's own checks use. With
 * `formError`, the message is also the form's own error (for forms that show it inline rather than
 * in a toast); `hideFields` are not sent back (passwords, tokens). Without a submission (the form could not be read) only the message is sent.
 */
export function failureReply(
  error: unknown,
  submission?: Submission<unknown>,
  { formError = true, hideFields }: { formError?: boolean; hideFields?: string[] } = {},
) {
  const { status, message, fieldErrors, headers } = errorAnswer(error);
  const result = submission?.reply({ ...(formError ? { formErrors: [message] } : {}), fieldErrors: fieldErrors ?? {}, hideFields });
  return { status, headers, error: message, result };
}

export function formFailure(error: unknown, submission?: Submission<unknown>) {
  const { status, headers, error: message, result } = failureReply(error, submission);
  return data<FormFailure>({ ok: false, error: message, ...(result ? { result } : {}) }, { status, headers });
}

/** A submission that failed the schema: 400 with its field errors and the first message. */
export function invalidSubmission(submission: Submission<unknown>) {
  const result = submission.reply();
  return data<FormFailure>({ ok: false, error: firstMessage(result) ?? "Please check the form.", result }, { status: 400 });
}
