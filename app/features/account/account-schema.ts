import { z } from "zod";
import { PASSWORD_MAX_LENGTH } from "~/lib/password-policy";
import { PASSWORDS_DIFFER } from "~/features/auth/auth-messages";

/** The /admin/account password form; the policy (length, not the email) is checked on the server. */
export const passwordChangeSchema = z
  .object({
    currentPassword: z
      .string({ error: "Enter your current password." })
      .min(1, "Enter your current password.")
      .max(1024, "Password is too long"),
    newPassword: z
      .string({ error: "Enter a new password." })
      .min(1, "Enter a new password.")
      .max(PASSWORD_MAX_LENGTH * 8, "Password is too long"),
    confirmPassword: z.string({ error: "Please confirm the new password." }).min(1, "Please confirm the new password."),
  })
  .refine((v) => v.newPassword === v.confirmPassword, { message: PASSWORDS_DIFFER.title, path: ["confirmPassword"] });

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
