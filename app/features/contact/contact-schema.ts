import { z } from "zod";
import { fieldErrorsOf, type FieldErrors } from "~/lib/field-errors";
import { EMAIL_MAX_LENGTH, emailSchema } from "~/lib/email";

/** SPEC §9: contact limits. */
export const CONTACT_LIMITS = { name: 100, email: EMAIL_MAX_LENGTH, message: 1000 } as const;

/**
 * The contact form (SPEC §5), one schema for the browser and the server. Messages are quoted from
 * the spec and shown beside their fields.
 */
export const contactSchema = z.object({
  name: z.string().trim().min(1, "Name is required").max(CONTACT_LIMITS.name, "Name must be less than 100 characters"),
  email: emailSchema,
  message: z.string().trim().min(1, "Message is required").max(CONTACT_LIMITS.message, "Message must be less than 1000 characters"),
});

export type ContactInput = z.infer<typeof contactSchema>;
export type ContactField = keyof ContactInput;
export type ContactFieldErrors = Partial<Record<ContactField, string[]>>;

/** Name of the hidden honeypot field: people never see or fill it, form-filling bots do. */
export const HONEYPOT_FIELD = "website";

/**
 * The body of POST /api/send-contact-email (SPEC §7: name, email, message, turnstileToken — the
 * token of whichever verifier is active), plus the client-generated submission id and the honeypot.
 */
export const contactRequestSchema = contactSchema.extend({
  turnstileToken: z.string().max(4096).optional().nullable(),
  clientId: z.uuid("Invalid submission id").optional().nullable(),
  [HONEYPOT_FIELD]: z.string().max(2000).optional().nullable(),
});

/** The errors of the three fields the form shows, out of field errors (a failed parse's, or the server's). */
export function contactFieldsOf({ name, email, message }: FieldErrors): ContactFieldErrors {
  return { ...(name ? { name } : {}), ...(email ? { email } : {}), ...(message ? { message } : {}) };
}

/** The shared field errors (fieldErrorsOf) of the three fields the form shows. */
export function contactFieldErrors(error: z.ZodError): ContactFieldErrors {
  return contactFieldsOf(fieldErrorsOf(error));
}

/** The first word of the entered name, for the thank-you greeting (SPEC §4). */
export function firstName(name: string): string {
  return name.trim().split(/\s+/)[0] ?? "";
}

/** The thank-you dialog's text (SPEC §4). */
export const THANK_YOU_TEXT = "Your message has been sent. I'll get back to you within 24-48 hours on business days.";

/** The thank-you greeting by the first word of the entered name (SPEC §4). */
export function thankYouTitle(name: string): string {
  return name ? `Thank you, ${name}!` : "Thank you!";
}

/** SPEC §8: what the visitor sees when a send fails. */
export const CONTACT_SEND_FAILED = {
  title: "Error sending message",
  description: "There was a problem sending your message. Please try again or email me directly.",
} as const;
