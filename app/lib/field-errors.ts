import type { z } from "zod";

/** Messages by form field, the shape every form and JSON answer uses. */
export type FieldErrors = Record<string, string[]>;

/**
 * THE way a zod failure becomes field errors, on the server (ValidationError) and in the browser:
 * each issue's message under its top-level field, in the order zod reports them. An issue about the
 * whole input (no path) belongs to no field; it is the error's message instead.
 */
export function fieldErrorsOf(error: z.ZodError): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const field = issue.path[0];
    if (field === undefined) continue;
    (out[String(field)] ??= []).push(issue.message);
  }
  return out;
}
