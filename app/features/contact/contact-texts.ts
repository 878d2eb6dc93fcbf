import { fillPlaceholders } from "~/lib/placeholders";

/**
 * The contact form's texts and small rules without zod (SPEC §4, §8), for the browser's form
 * behaviour, which loads the schema (contact-schema.ts, with zod) only once the form is used.
 */

/** The form's fields (contact-schema.ts checks they are its schema's). */
export type ContactField = "name" | "email" | "message";
export type ContactFieldErrors = Partial<Record<ContactField, string[]>>;

/** Name of the hidden honeypot field: people never see or fill it, form-filling bots do. */
export const HONEYPOT_FIELD = "website";

/** The errors of the three fields the form shows, out of field errors (a failed parse's, or the server's). */
export function contactFieldsOf({ name, email, message }: Record<string, string[]>): ContactFieldErrors {
  return { ...(name ? { name } : {}), ...(email ? { email } : {}), ...(message ? { message } : {}) };
}

/** The first word of the entered name, for the thank-you greeting (SPEC §4). */
export function firstName(name: string): string {
  return name.trim().split(/\s+/)[0] ?? "";
}

/** The thank-you greeting by the first word of the entered name (SPEC §4), in the owner's words ("Thank you, {name}!"). */
export function thankYouTitle(template: string, name: string): string {
  return fillPlaceholders(template, { name });
}

/** SPEC §8: what the visitor sees when a send fails. */
export const CONTACT_SEND_FAILED = {
  title: "Error sending message",
  description: "There was a problem sending your message. Please try again or email me directly.",
} as const;
