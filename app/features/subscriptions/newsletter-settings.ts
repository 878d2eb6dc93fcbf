import { z } from "zod";
import { formCheckbox } from "~/lib/forms";

/** What a post's email holds: its excerpt with a link, or the whole post. */
export const NEWSLETTER_CONTENT = ["excerpt", "full"] as const;

export const NEWSLETTER_TEXT = {
  publish: "Publish",
  publishAndEmail: "Publish and email subscribers",
  rateInvalid: "Emails per second must be a number from 0.1 to 100",
  accentInvalid: "Accent colour must be a hex colour like #2563eb",
  forbidden: "Only administrators can change the newsletter settings.",
  saved: "Newsletter settings saved",
} as const;

const HEX_COLOUR = /^#[0-9a-f]{6}$/i;

/** The newsletter settings: one record every instance reads from the database. */
export const newsletterSettingsSchema = z.object({
  /** The choice the post form starts with when a post goes live. */
  emailByDefault: z.boolean(),
  content: z.enum(NEWSLETTER_CONTENT),
  /** Pacing of a post's emails across all instances. */
  ratePerSecond: z.number().min(0.1, NEWSLETTER_TEXT.rateInvalid).max(100, NEWSLETTER_TEXT.rateInvalid),
  /** The button and link colour of every email. */
  accentColor: z.string().trim().regex(HEX_COLOUR, NEWSLETTER_TEXT.accentInvalid),
});
export type NewsletterSettings = z.output<typeof newsletterSettingsSchema>;

export const DEFAULT_NEWSLETTER_SETTINGS: NewsletterSettings = {
  emailByDefault: true,
  content: "excerpt",
  ratePerSecond: 10,
  accentColor: "#2563eb",
};

/** The settings form as the browser posts it. */
export const newsletterSettingsFormSchema = newsletterSettingsSchema.extend({
  emailByDefault: formCheckbox,
  ratePerSecond: z.coerce
    .number({ error: NEWSLETTER_TEXT.rateInvalid })
    .min(0.1, NEWSLETTER_TEXT.rateInvalid)
    .max(100, NEWSLETTER_TEXT.rateInvalid),
});
