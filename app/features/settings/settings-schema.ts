import { z } from "zod";
import { contrastRatio, firstContrastFailure, formatRatio, MIN_CONTRAST, normalizeHex, type ContrastCheck } from "~/lib/accent-colour";
import { emailSchema } from "~/lib/email";
import { DEFAULT_FONT_PAIRING, FONT_PAIRING_IDS } from "~/lib/font-pairings";
import { formCheckbox } from "~/lib/forms";
import { isSitePathOrWebUrl, webOriginOf } from "~/lib/web-origin";
import { logoMarkSchema, siteIconsSchema, type LogoMark, type SiteIcons } from "~/features/uploads/site-icons";

/**
 * The site's identity and addresses (/admin/settings): one typed record. The form schema
 * reads the posted strings (links as "Label | https://…" lines); the stored record is its output.
 */

export const SETTINGS_FORBIDDEN = "Only administrators can change the site settings.";
export const SETTINGS_SAVED = "Settings saved";

export const SETTINGS_LIMITS = {
  siteName: 80,
  ownerName: 80,
  headline: 160,
  tagline: 300,
  bio: 2000,
  url: 500,
  linkLabel: 40,
  links: 12,
} as const;

const HTTP_URL_MESSAGE = "must be a web address starting with http:// or https://";

// The host must be a plain host name: these addresses reach links, feeds and the CSP header.
function isHttpUrl(value: string): boolean {
  return webOriginOf(value) !== undefined;
}

const text = (label: string, max: number) => z.string().trim().max(max, `${label} must be at most ${max} characters`).default("");

const httpUrl = (label: string) => text(label, SETTINGS_LIMITS.url).refine((v) => v === "" || isHttpUrl(v), `${label} ${HTTP_URL_MESSAGE}`);

const pathOrUrl = (label: string) =>
  text(label, SETTINGS_LIMITS.url).refine(
    (v) => v === "" || isSitePathOrWebUrl(v),
    `${label} must be a site path starting with / or a web address starting with http:// or https://`,
  );

export interface SiteLink {
  label: string;
  url: string;
}

/** Links typed one a line as "Label | https://…", in order; blank lines are skipped. */
const linkLines = (label: string) =>
  z
    .string()
    .default("")
    .transform((value, ctx): SiteLink[] => {
      const lines = value
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter(Boolean);
      if (lines.length > SETTINGS_LIMITS.links) {
        ctx.addIssue({ code: "custom", message: `${label}: at most ${SETTINGS_LIMITS.links} links` });
        return z.NEVER;
      }
      const links: SiteLink[] = [];
      for (const [index, line] of lines.entries()) {
        const bar = line.indexOf("|");
        const name = bar === -1 ? "" : line.slice(0, bar).trim();
        const url = bar === -1 ? line : line.slice(bar + 1).trim();
        const where = `${label}, line ${index + 1}`;
        if (!name || bar === -1) {
          ctx.addIssue({ code: "custom", message: `${where}: write it as "Label | https://…"` });
          return z.NEVER;
        }
        if (name.length > SETTINGS_LIMITS.linkLabel) {
          ctx.addIssue({ code: "custom", message: `${where}: the label must be at most ${SETTINGS_LIMITS.linkLabel} characters` });
          return z.NEVER;
        }
        if (url.length > SETTINGS_LIMITS.url || !isHttpUrl(url)) {
          ctx.addIssue({ code: "custom", message: `${where}: the address ${HTTP_URL_MESSAGE}` });
          return z.NEVER;
        }
        links.push({ label: name, url });
      }
      return links;
    });

export const ACCENT_INVALID = "Accent colour must be a hex colour like #1d4ed8 (or empty for the theme's own blue)";

const SURFACE_NAMES: Record<ContrastCheck["against"], string> = {
  background: "the dark background",
  card: "the dark cards",
  tint: "the dark tint at the top of the home page",
  "button text": "its button text",
};

/** Why an accent colour is refused, with the ratio measured and what to do about it. */
export function accentContrastMessage(hex: string, check: ContrastCheck): string {
  const ratio = formatRatio(check.ratio);
  const needs = `it needs ${MIN_CONTRAST}:1`;
  const darker = "Choose a darker colour.";
  if (check.theme === "dark") {
    return `In the dark theme the accent colour becomes ${check.foreground}, which has a contrast of ${ratio} against ${SURFACE_NAMES[check.against]} (${check.background}); ${needs}.`;
  }
  if (check.use === "button") {
    const text = contrastRatio(check.foreground, "#ffffff") < contrastRatio(check.foreground, "#000000") ? "White" : "Dark";
    return `${text} text on a ${hex} button has a contrast of ${ratio}; ${needs}. ${darker}`;
  }
  const against = check.against === "tint" ? `the pale tint at the top of the home page (${check.background})` : "white";
  return `Accent colour ${hex} has a contrast of ${ratio} against ${against}; ${needs}. ${darker}`;
}

/**
 * The brand's accent colour: empty (the theme's own colours) or one that reads at WCAG AA wherever
 * the site draws it, in both themes; stored as "#rrggbb".
 */
const accentColour = z
  .string()
  .trim()
  .default("")
  .transform((value, ctx) => {
    if (value === "") return "";
    const hex = normalizeHex(value);
    if (!hex) {
      ctx.addIssue({ code: "custom", message: ACCENT_INVALID });
      return z.NEVER;
    }
    const failure = firstContrastFailure(hex);
    if (failure) {
      ctx.addIssue({ code: "custom", message: accentContrastMessage(hex, failure) });
      return z.NEVER;
    }
    return hex;
  });

/**
 * How the home page's "Reach Me" section books calls: the site's own booking (/book), a link to an
 * external scheduling page, that page embedded (with the link always shown too), or no section.
 */
export const BOOKING_MODES = ["built-in", "external-link", "external-embed", "off"] as const;
export type BookingMode = (typeof BOOKING_MODES)[number];

export const siteSettingsFormSchema = z.object({
  siteName: text("Site name", SETTINGS_LIMITS.siteName).refine((v) => v.length > 0, "Site name is required"),
  /** The public address links in feeds, emails and canonical tags start with, when PUBLIC_URL is unset. */
  siteUrl: httpUrl("Site address").refine(
    (v) => v === "" || !URL.canParse(v) || new URL(v).pathname === "/",
    "Site address must be the site's root, e.g. https://example.com",
  ),
  ownerName: text("Owner's name", SETTINGS_LIMITS.ownerName),
  headline: text("Headline", SETTINGS_LIMITS.headline),
  tagline: text("Tagline", SETTINGS_LIMITS.tagline),
  bio: text("Short bio", SETTINGS_LIMITS.bio),
  portraitUrl: pathOrUrl("Portrait"),
  logoUrl: pathOrUrl("Logo mark"),
  faviconUrl: pathOrUrl("Favicon"),
  socialImageUrl: pathOrUrl("Default social image"),
  contactEmail: z
    .string()
    .trim()
    .default("")
    .refine((v) => v === "" || emailSchema.safeParse(v).success, "Contact email must be a valid email address"),
  resumeUrl: pathOrUrl("Resume link"),
  socialLinks: linkLines("Social links"),
  serviceLinks: linkLines("Services links"),
  newsletterUrl: httpUrl("Newsletter URL"),
  bookingMode: z.enum(BOOKING_MODES).default("built-in"),
  schedulingUrl: httpUrl("Scheduling page URL"),
  substackUrl: httpUrl("Newsletter feed address"),
  tspBlogUrl: httpUrl("Blog feed address"),
  tspKbUrl: httpUrl("Knowledge-base feed address"),
  accentColor: accentColour,
  fontPairing: z.enum(FONT_PAIRING_IDS).default(DEFAULT_FONT_PAIRING),
});

export type SiteSettingsInput = z.output<typeof siteSettingsFormSchema>;

/** Files made from the uploaded logo and favicon when the settings were saved (null: the defaults). */
export interface SiteMadeImages {
  logoMark: LogoMark | null;
  icons: SiteIcons | null;
}

export type SiteSettings = SiteSettingsInput & SiteMadeImages;

const linkSchema = z.object({ label: z.string(), url: z.string() });

/** What is stored: any subset of the record (fields added later fall back to their defaults). */
export const storedSiteSettingsSchema = z
  .object({
    siteName: z.string().min(1),
    siteUrl: z.string(),
    ownerName: z.string(),
    headline: z.string(),
    tagline: z.string(),
    bio: z.string(),
    portraitUrl: z.string(),
    logoUrl: z.string(),
    faviconUrl: z.string(),
    logoMark: logoMarkSchema.nullable(),
    icons: siteIconsSchema.nullable(),
    socialImageUrl: z.string(),
    contactEmail: z.string(),
    resumeUrl: z.string(),
    socialLinks: z.array(linkSchema),
    serviceLinks: z.array(linkSchema),
    newsletterUrl: z.string(),
    bookingMode: z.enum(BOOKING_MODES),
    schedulingUrl: z.string(),
    substackUrl: z.string(),
    tspBlogUrl: z.string(),
    tspKbUrl: z.string(),
    // Written into every page's <style>: anything but a plain colour is dropped, not trusted.
    accentColor: z
      .string()
      .regex(/^(#[0-9a-f]{6})?$/)
      .catch(""),
    fontPairing: z.enum(FONT_PAIRING_IDS).catch(DEFAULT_FONT_PAIRING),
  })
  .partial();

/** Links as the form's textarea shows them. */
export function linksToText(links: readonly SiteLink[]): string {
  return links.map((link) => `${link.label} | ${link.url}`).join("\n");
}

/** The record as the form's default values (every field a string). */
export function settingsFormValues({
  logoMark: _logoMark,
  icons: _icons,
  ...settings
}: SiteSettings): Record<keyof SiteSettingsInput, string> {
  return { ...settings, socialLinks: linksToText(settings.socialLinks), serviceLinks: linksToText(settings.serviceLinks) };
}

/** Security settings: kept apart from the public record, which every page's loader sends to the browser. */
export const REQUIRE_TWO_FACTOR_LABEL = "Require two-factor authentication for admins and moderators";
export const SECURITY_SAVED = "Security settings saved";

export const securitySettingsFormSchema = z.object({ requireTwoFactor: formCheckbox });
export type SecuritySettings = z.output<typeof securitySettingsFormSchema>;

export const storedSecuritySettingsSchema = z.object({ requireTwoFactor: z.boolean() }).partial();
