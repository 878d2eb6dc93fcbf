import type { Submission, SubmissionResult } from "@conform-to/dom";
import { parseWithZod } from "@conform-to/zod/v4";
import { z } from "zod";

export type { Submission, SubmissionResult } from "@conform-to/dom";
/** What a reply to a submission may carry (field and form errors, fields to leave out). */
export type ReplyOptions = NonNullable<Parameters<Submission<unknown>["reply"]>[0]>;

/**
 * Reads a posted form with a shared zod schema: the browser (before sending) and the route action
 * (on arrival) call this same function, so both speak the schema's messages.
 *
 * Conform's automatic coercion is off: it turns an empty field into `undefined`, which would make
 * zod answer "expected string, received undefined" instead of the schema's own "… is required".
 * The schemas read form strings themselves (see `formCheckbox`, `jsonField`).
 */
export function parseSubmission<Schema extends z.ZodType>(
  formData: FormData | URLSearchParams,
  schema: Schema,
): Submission<z.input<Schema>, string[], z.output<Schema>> {
  return parseWithZod(formData, { schema, disableAutoCoercion: true });
}

/** What a form action answers when it fails: the message (for a toast) and Conform's reply. */
export interface FormFailure {
  ok: false;
  error: string;
  result?: SubmissionResult<string[]>;
}

/** The first message of a failed submission's reply, for a toast. */
export function firstMessage(result: { error?: Record<string, string[] | null> | null }): string | undefined {
  return Object.values(result.error ?? {}).find((messages) => messages?.length)?.[0];
}

/** A checkbox or switch: browsers send "on" when ticked and nothing otherwise. */
export const formCheckbox = z
  .union([z.literal("on"), z.literal("true"), z.literal("false"), z.literal(""), z.boolean()])
  .optional()
  .transform((v) => v === true || v === "on" || v === "true");

/** A hidden field carrying a list as JSON (e.g. the post form's media), checked by `schema`. */
export function jsonField<T extends z.ZodType>(schema: T, message = "Invalid list") {
  return z
    .string()
    .optional()
    .transform((text, ctx) => {
      if (!text) return [];
      try {
        const value: unknown = JSON.parse(text);
        return value;
      } catch {
        ctx.addIssue({ code: "custom", message });
        return z.NEVER;
      }
    })
    .pipe(schema);
}
