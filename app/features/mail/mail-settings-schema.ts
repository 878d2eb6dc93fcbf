import { z } from "zod";
import { emailSchema } from "~/lib/email";
import { formCheckbox } from "~/lib/forms";

/** Settings → Email (administrators): the SMTP server the site sends through, and the sender. */

export const MAIL_SETTINGS_SAVED = "Email settings saved";
export const MAIL_FORBIDDEN = "Only administrators can change the email settings.";
export const MAIL_NOT_SET_UP = "Email isn't set up: subscriptions, password resets, booking emails and contact forwarding are paused";
export const MAIL_LAST_SEND_FAILED = "The last email could not be sent";
/** Followed by the address links in emails would start with instead (the server's own). */
export const MAIL_SITE_ADDRESS_MISSING = "Set the site address before email goes out: until then, links in emails point to";
export const MAIL_ENV_WINS =
  "SMTP_URL is set in the server's environment: it is used instead of the server settings below (the sender fields still apply).";
/** Emails the mail log lists. */
export const MAIL_LOG_SIZE = 100;
export const PASSWORD_KEEP_HINT = "Write-only: leave empty to keep the saved password.";
export const TEST_EMAIL_NEEDS_SETUP = "Save the SMTP settings first: there is nothing to send the test email with yet.";

export const SMTP_SECURITY_OPTIONS = [
  { value: "starttls", label: "STARTTLS (usually port 587)" },
  { value: "tls", label: "TLS (usually port 465)" },
  { value: "none", label: "None (only for a server on this machine or network)" },
] as const;

const optionalEmail = (label: string) =>
  z
    .string()
    .trim()
    .default("")
    .refine((v) => v === "" || emailSchema.safeParse(v).success, `${label} must be an email address`);

/** One line, no control characters: these go into SMTP commands and headers. */
const line = (label: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .refine((v) => !/[\r\n\0]/.test(v), `${label} must be on one line`)
    .default("");

export const mailSettingsFormSchema = z
  .object({
    host: line("Host", 255).refine(
      (v) => v === "" || /^[A-Za-z0-9.-]+$|^\[[0-9a-fA-F:.]+\]$/.test(v),
      "Host must be a host name or an IP address",
    ),
    port: z
      .string()
      .trim()
      .default("587")
      .refine((v) => /^\d{1,5}$/.test(v) && Number(v) >= 1 && Number(v) <= 65535, "Port must be a number from 1 to 65535")
      .transform(Number),
    security: z.enum(["none", "starttls", "tls"], { error: "Choose how the connection is secured" }),
    user: line("User", 255),
    /** Empty keeps the saved password; never sent back to the browser. */
    password: z.string().max(500, "Password must be at most 500 characters").default(""),
    clearPassword: formCheckbox,
    senderName: line("Sender name", 80),
    senderAddress: optionalEmail("Sender address"),
    replyTo: optionalEmail("Reply-to"),
    subscriptionsEnabled: formCheckbox,
  })
  .superRefine((value, ctx) => {
    if (value.host && !value.senderAddress) {
      ctx.addIssue({ code: "custom", path: ["senderAddress"], message: "Sender address is required to send email" });
    }
  });
export type MailSettingsInput = z.output<typeof mailSettingsFormSchema>;

export const testEmailSchema = z.object({ to: emailSchema });

/** What the settings screen shows: never the password, only whether one is saved. */
export interface MailSettingsView {
  host: string;
  port: number;
  security: "none" | "starttls" | "tls";
  user: string;
  hasPassword: boolean;
  senderName: string;
  senderAddress: string;
  replyTo: string;
  subscriptionsEnabled: boolean;
  /** SMTP_URL is set: it wins over host, port, security, user and password. */
  envWins: boolean;
  configured: boolean;
}
