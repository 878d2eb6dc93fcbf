import { data } from "react-router";
import { firstMessage, type Submission, type SubmissionResult } from "~/lib/forms";
import { errorBody } from "./errors.server";

/** What a form action answers when it fails: the message (for a toast) and Conform's reply. */
export interface FormFailure {
  ok: false;
  error: string;
  result?: SubmissionResult<string[]>;
}

/**
 * A failed form action as a 4xx (or logged 500): the domain's field errors go back under their
 * fields through the same reply the browser's own checks use, the message as a form error.
 * Without a submission (the form could not be read) only the message is sent.
 */
export function formFailure(error: unknown, submission?: Submission<unknown>) {
  const { status, body } = errorBody(error);
  const result = submission?.reply({ formErrors: [body.error], fieldErrors: body.fieldErrors ?? {} });
  return data<FormFailure>({ ok: false, error: body.error, ...(result ? { result } : {}) }, { status });
}

/** A submission that failed the schema: 400 with its field errors and the first message. */
export function invalidSubmission(submission: Submission<unknown>) {
  const result = submission.reply();
  const first = firstMessage(result) ?? "Please check the form.";
  return data<FormFailure>({ ok: false, error: first, result }, { status: 400 });
}
