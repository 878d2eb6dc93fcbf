// First: the footer brings the subscribe form into the root's bundle, and the chunks the root
// imports run before the root's own import of zod-csp; these object schemas (which probe for eval
// when created) must be created after it, or the CSP reports a violation on every page.
import "~/lib/zod-csp";
import { z } from "zod";
import { CATEGORIES, type Category } from "~/lib/categories";
import { EMAIL_MAX_LENGTH, emailSchema } from "~/lib/email";

export const CATEGORIES_REQUIRED = "Choose at least one category";

/** Checkboxes post one value per ticked box: none, one (a string) or several (an array). */
const categoryList = z.preprocess(
  (value) => (value === undefined || value === "" ? [] : Array.isArray(value) ? value : [value]),
  z.array(z.enum(CATEGORIES, { error: "Unknown category" })).min(1, CATEGORIES_REQUIRED),
);

/** What the subscribe form sends (the browser checks it, the server again). Addresses are one subscriber whatever their case. */
export const subscribeSchema = z.object({
  email: emailSchema.transform((email) => email.toLowerCase()),
  categories: categoryList,
});

export const subscribeRequestSchema = subscribeSchema.extend({
  verificationToken: z.string().max(4096).optional().nullable(),
});

/** The manage page's form: a new set of categories. */
export const manageSchema = z.object({ categories: categoryList });

export type SubscribeInput = z.infer<typeof subscribeSchema>;

export const SUBSCRIBE_LIMITS = { email: EMAIL_MAX_LENGTH } as const;

export const SUBSCRIBE_TEXT = {
  checkInbox: "Check your inbox: we sent you a link to confirm your subscription.",
  confirmed: "You're subscribed. New posts in your categories will arrive by email.",
  linkInvalid: "This confirmation link is invalid or has expired. Please subscribe again.",
  unsubscribed: "You're unsubscribed. No more emails will be sent to this address.",
  manageInvalid: "This link is invalid or the address is no longer subscribed.",
  saved: "Your categories are saved.",
  rateLimited: "You have subscribed several times in a short time. Please try again later.",
  /** Shown instead of the form while email cannot be sent (or the owner turned subscriptions off). */
  unavailable: "Email subscriptions are not available yet.",
  followRss: "Follow new posts with the RSS feed",
  resendNeedsMail: "Email isn't set up yet: set it up in Settings → Email first.",
  resendRateLimited: "Confirmations were re-sent a short while ago. Please try again later.",
} as const;

/** Every category, in the site's order: the form's default. */
export const ALL_CATEGORIES: readonly Category[] = CATEGORIES;

/**
 * One CSV cell: quoted, inner quotes doubled, and a cell a spreadsheet would run as a formula
 * (=, +, -, @, and tab/CR that some read the same way) prefixed with a quote (OWASP CSV injection).
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}

export function csvRow(values: string[]): string {
  return values.map(csvCell).join(",");
}
