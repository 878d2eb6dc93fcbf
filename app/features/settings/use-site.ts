import { useRouteLoaderData } from "react-router";
import type { SiteSettings } from "./settings-schema";
import { DEMO_SITE_SETTINGS } from "./site-defaults";

/** The site settings as the root loader read them (the demo identity outside the root route, e.g. in tests). */
export function useSite(): SiteSettings {
  const data = useRouteLoaderData("root") as { site?: SiteSettings } | undefined;
  return data?.site ?? DEMO_SITE_SETTINGS;
}
