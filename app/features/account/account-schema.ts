import { z } from "zod";
import { PASSWORD_MAX_LENGTH } from "~/lib/password-policy";
import { PASSWORDS_DIFFER } from "~/features/auth/auth-messages";
import { INVALID_CODE } from "~/features/auth/two-factor-schema";
import { accountEmailSchema } from "~/lib/email";

const currentPasswordSchema = z
  .string({ error: "Enter your current password." })
  .min(1, "Enter your current password.")
  .max(1024, "Password is too long");

/** The /admin/account password form; the policy (length, not the email) is checked on the server. */
export const passwordChangeSchema = z
  .object({
    currentPassword: currentPasswordSchema,
    newPassword: z
      .string({ error: "Enter a new password." })
      .min(1, "Enter a new password.")
      .max(PASSWORD_MAX_LENGTH * 8, "Password is too long"),
    confirmPassword: z.string({ error: "Please confirm the new password." }).min(1, "Please confirm the new password."),
  })
  .refine((v) => v.newPassword === v.confirmPassword, { message: PASSWORDS_DIFFER.title, path: ["confirmPassword"] });

/**
 * The /admin/account "Email" form: the new sign-in email and the current password; a code of the second
 * factor too when the change applies at once (mail not set up and two-factor on — checked on the server).
 */
export const emailChangeSchema = z.object({
  newEmail: accountEmailSchema,
  currentPassword: currentPasswordSchema,
  code: z.string().trim().max(40, INVALID_CODE).optional(),
});

/** The label of the second-factor field of the "Email" form. */
export const EMAIL_CHANGE_CODE_LABEL = "Authentication code or recovery code";

/** The confirmation link's page: the token from the link. */
export const emailChangeTokenSchema = z.object({
  token: z.string({ error: "This link is not valid." }).min(20, "This link is not valid.").max(200, "This link is not valid."),
});

export const sessionIdSchema = z.object({
  sessionId: z.string({ error: "Unknown session." }).min(1, "Unknown session.").max(100, "Unknown session."),
});

/** A readable name for a user agent: "Firefox on Linux". Good enough for recognising one's own devices. */
export function describeUserAgent(ua: string | null): string {
  if (!ua) return "Unknown browser";
  const browser = /Edg\//.test(ua)
    ? "Edge"
    : /OPR\/|Opera/.test(ua)
      ? "Opera"
      : /Firefox\//.test(ua)
        ? "Firefox"
        : /Chrome\/|CriOS\//.test(ua)
          ? "Chrome"
          : /Safari\//.test(ua)
            ? "Safari"
            : /curl\//.test(ua)
              ? "curl"
              : "Unknown browser";
  const os = /Android/.test(ua)
    ? "Android"
    : /iPhone|iPad|iPod/.test(ua)
      ? "iOS"
      : /Windows/.test(ua)
        ? "Windows"
        : /Mac OS X|Macintosh/.test(ua)
          ? "macOS"
          : /Linux/.test(ua)
            ? "Linux"
            : null;
  return os ? `${browser} on ${os}` : browser;
}
