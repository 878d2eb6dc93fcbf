import { data } from "react-router";
import { firstMessage, type FormFailure, type ReplyOptions, type Submission } from "~/lib/forms";
import { errorAnswer } from "./errors.server";

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

export function formFailure(error: unknown, submission?: Submission<unknown>) {
  const { status, headers, error: message, result } = failureReply(error, submission);
  return data<FormFailure>({ ok: false, error: message, ...(result ? { result } : {}) }, { status, headers });
}

/** A submission that failed the schema: 400 with its field errors and the first message. */
export function invalidSubmission(submission: Submission<unknown>) {
  const result = replyWithoutSecrets(submission);
  return data<FormFailure>({ ok: false, error: firstMessage(result) ?? "Please check the form.", result }, { status: 400 });
}
