import { z } from "zod";

export const EMAIL_MAX_LENGTH = 255;
const EMAIL_REQUIRED = "Email is required";
const INVALID_EMAIL = "Invalid email address";

/** SPEC §5: trimmed, at most 255 characters, a valid address — kept as typed (the contact form). */
export const emailSchema = z
  .string({ error: INVALID_EMAIL })
  .trim()
  .max(EMAIL_MAX_LENGTH, `Email must be less than ${EMAIL_MAX_LENGTH} characters`)
  .pipe(z.email(INVALID_EMAIL));

/**
 * The email of an account (sign-in, reset, users, seeding): the same rule, lower-cased because one
 * address is one account whatever its letter case, and an empty field is named as missing.
 */
export const accountEmailSchema = z.string({ error: EMAIL_REQUIRED }).trim().toLowerCase().min(1, EMAIL_REQUIRED).pipe(emailSchema);

/**
 * The mailbox an address reaches, for per-address limits: lower case, without a "+tag" in the local
 * part (victim+1@… and victim+2@… land in one inbox, so they count as one address).
 */
export function mailboxOf(email: string): string {
  const at = email.lastIndexOf("@");
  if (at < 0) return email.trim().toLowerCase();
  const local = email.slice(0, at).replace(/\+.*$/, "");
  return `${local}${email.slice(at)}`.trim().toLowerCase();
}
