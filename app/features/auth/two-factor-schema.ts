import { z } from "zod";

/**
 * The two-factor forms' rules, shared by the browser forms and the server functions:
 * the sign-in step, the setup confirmation on /admin/account and turning it off.
 */
export const CODE_LABEL = "Authentication code";
export const INVALID_CODE = "That code is not valid. Check your authenticator app and try again.";
export const TWO_FACTOR_EXPIRED = "Your sign-in has expired. Please sign in again.";
export const ENTER_CODE = "Enter the code from your authenticator app or a recovery code.";

/** A 6-digit app code or a recovery code; spaces and dashes as typed are allowed. */
export const twoFactorCodeSchema = z.object({
  code: z.string({ error: ENTER_CODE }).trim().min(1, ENTER_CODE).max(40, INVALID_CODE),
});

export const totpConfirmSchema = z.object({
  code: z
    .string({ error: "Enter the 6-digit code from your authenticator app." })
    .trim()
    .regex(/^\d{3} ?\d{3}$/, "Enter the 6-digit code from your authenticator app."),
});

export const DISABLE_LABEL = "Current password or authentication code";
const DISABLE_REQUIRED = "Enter your current password or a code from your authenticator app.";

export const twoFactorDisableSchema = z.object({
  credential: z.string({ error: DISABLE_REQUIRED }).min(1, DISABLE_REQUIRED).max(1024, "That is too long."),
});

/** What a person typed, as stored or compared: digits for an app code, lower-case letters and digits for a recovery code. */
export function normalizeCode(code: string): string {
  return code.replace(/[\s-]/g, "").toLowerCase();
}

export function looksLikeTotp(code: string): boolean {
  return /^\d{6}$/.test(normalizeCode(code));
}
