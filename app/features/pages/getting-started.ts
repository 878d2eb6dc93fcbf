import type { SiteSettings } from "../settings/settings-schema";
import { DEMO_SITE_SETTINGS, NEUTRAL_SITE_NAME } from "../settings/site-defaults";

export interface GettingStartedStep {
  id: "site-name" | "portrait" | "about" | "first-post" | "contact-email";
  label: string;
  done: boolean;
  /** The screen where it is done. */
  to: string;
}

/** Set by the owner: not empty and not the placeholder a new or demo site starts with. */
function ownValue(value: string, ...placeholders: string[]): boolean {
  const trimmed = value.trim();
  return trimmed !== "" && !placeholders.includes(trimmed);
}

/**
 * The dashboard's Getting Started checklist for a new site, live from the settings and the posts.
 * Only the steps this actor can act on: the settings items go to those who may change the settings.
 */
export function gettingStartedSteps(input: {
  settings: SiteSettings;
  publishedPosts: number;
  canManageSettings: boolean;
}): GettingStartedStep[] {
  const { settings, publishedPosts, canManageSettings } = input;
  const settingsLink = "/admin/settings";
  const steps: (GettingStartedStep & { mine: boolean })[] = [
    {
      id: "site-name",
      label: "Name your site",
      done: ownValue(settings.siteName, NEUTRAL_SITE_NAME, DEMO_SITE_SETTINGS.siteName),
      to: settingsLink,
      mine: canManageSettings,
    },
    {
      id: "portrait",
      label: "Upload your portrait",
      done: ownValue(settings.portraitUrl, DEMO_SITE_SETTINGS.portraitUrl),
      to: settingsLink,
      mine: canManageSettings,
    },
    {
      id: "about",
      label: "Write your About summary",
      done: ownValue(settings.bio, DEMO_SITE_SETTINGS.bio),
      to: settingsLink,
      mine: canManageSettings,
    },
    { id: "first-post", label: "Publish your first post", done: publishedPosts > 0, to: "/admin/blog", mine: true },
    {
      id: "contact-email",
      label: "Set the contact email",
      done: ownValue(settings.contactEmail, DEMO_SITE_SETTINGS.contactEmail),
      to: settingsLink,
      mine: canManageSettings,
    },
  ];
  return steps.filter((step) => step.mine).map(({ mine: _mine, ...step }) => step);
}
