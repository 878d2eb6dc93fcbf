import { z } from "zod";
import { fieldErrorsOf } from "~/lib/field-errors";
import { EMAIL_MAX_LENGTH, emailSchema } from "~/lib/email";
import { contactFieldsOf, HONEYPOT_FIELD, type ContactField, type ContactFieldErrors } from "./contact-texts";

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
// The texts module names the fields without zod: they must be the schema's.
const SCHEMA_FIELDS = { name: true, email: true, message: true } satisfies Record<keyof ContactInput, true> & Record<ContactField, true>;
void SCHEMA_FIELDS;

/**
 * The body of POST /api/send-contact-email (SPEC §7: name, email, message, turnstileToken — the
 * token of whichever verifier is active), plus the client-generated submission id and the honeypot.
 */
export const contactRequestSchema = contactSchema.extend({
  turnstileToken: z.string().max(4096).optional().nullable(),
  clientId: z.uuid("Invalid submission id").optional().nullable(),
  [HONEYPOT_FIELD]: z.string().max(2000).optional().nullable(),
});

/** The shared field errors (fieldErrorsOf) of the three fields the form shows. */
export function contactFieldErrors(error: z.ZodError): ContactFieldErrors {
  return contactFieldsOf(fieldErrorsOf(error));
}
