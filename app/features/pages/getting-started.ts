import type { SiteSettings } from "../settings/settings-schema";
import { DEMO_SITE_SETTINGS, NEUTRAL_SITE_NAME } from "../settings/site-defaults";

export interface GettingStartedStep {
  id: "site-name" | "portrait" | "about" | "first-post" | "contact-email";
  label: string;
  done: boolean;
  /** The screen where it is done; null when this actor cannot open it. */
  to: string | null;
}

/** Set by the owner: not empty and not the placeholder a new or demo site starts with. */
function ownValue(value: string, ...placeholders: string[]): boolean {
  const trimmed = value.trim();
  return trimmed !== "" && !placeholders.includes(trimmed);
}

/**
 * The dashboard's Getting Started checklist for a new site, live from the settings and the posts.
 * Settings items link to /admin/settings only for those who may change the settings.
 */
export function gettingStartedSteps(input: {
  settings: SiteSettings;
  publishedPosts: number;
  canManageSettings: boolean;
}): GettingStartedStep[] {
  const { settings, publishedPosts, canManageSettings } = input;
  const settingsLink = canManageSettings ? "/admin/settings" : null;
  return [
    {
      id: "site-name",
      label: "Name your site",
      done: ownValue(settings.siteName, NEUTRAL_SITE_NAME, DEMO_SITE_SETTINGS.siteName),
      to: settingsLink,
    },
    {
      id: "portrait",
      label: "Upload your portrait",
      done: ownValue(settings.portraitUrl, DEMO_SITE_SETTINGS.portraitUrl),
      to: settingsLink,
    },
    { id: "about", label: "Write your About summary", done: ownValue(settings.bio, DEMO_SITE_SETTINGS.bio), to: settingsLink },
    { id: "first-post", label: "Publish your first post", done: publishedPosts > 0, to: "/admin/blog" },
    {
      id: "contact-email",
      label: "Set the contact email",
      done: ownValue(settings.contactEmail, DEMO_SITE_SETTINGS.contactEmail),
      to: settingsLink,
    },
  ];
}
