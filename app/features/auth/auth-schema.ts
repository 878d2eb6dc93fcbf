import { z } from "zod";
import { accountEmailSchema } from "~/lib/email";
import { PASSWORD_MAX_LENGTH } from "~/lib/password-policy";
import { PASSWORDS_DIFFER } from "./auth-messages";

/**
 * The auth forms' rules (SPEC §5), one home for the browser form and the server functions
 * (auth.server.ts, password-reset.server.ts). The password policy itself needs the account's email,
 * so the server checks it and its message comes back under the password field.
 */
export const RESET_LINK_INVALID = "This password reset link is invalid or has expired. Please request a new one.";

export const loginSchema = z.object(
  {
    email: accountEmailSchema,
    password: z.string({ error: "Password is required" }).min(1, "Password is required").max(1024, "Password is too long"),
    verificationToken: z.string({ error: "Please complete the security verification." }).optional(),
  },
  { error: "Send the email and password as a JSON object." },
);
export type LoginInput = z.infer<typeof loginSchema>;

export const resetRequestSchema = z.object({
  email: accountEmailSchema,
  verificationToken: z.string().optional(),
});

export const passwordUpdateSchema = z
  .object({
    token: z.string({ error: RESET_LINK_INVALID }).min(20, RESET_LINK_INVALID).max(200, RESET_LINK_INVALID),
    password: z
      .string({ error: "Password is required" })
      .min(1, "Password is required")
      .max(PASSWORD_MAX_LENGTH * 8, "Password is too long"),
    confirmPassword: z.string({ error: "Please confirm the new password." }),
    verificationToken: z.string().optional(),
  })
  .refine((v) => v.password === v.confirmPassword, { message: PASSWORDS_DIFFER.title, path: ["confirmPassword"] });

export type AuthMode = "login" | "forgot" | "update";

/** The schema of each mode of the /auth form (its hidden `intent` field). */
export const AUTH_SCHEMAS = { login: loginSchema, forgot: resetRequestSchema, update: passwordUpdateSchema } as const;
