import { getEnv } from "~/server/env.server";
import type { SiteSettings } from "./settings-schema";
import { getSiteSettings } from "./settings.server";

function withoutTrailingSlash(url: string): string {
  return url.replace(/\/+$/, "");
}

/** A Host header we are willing to repeat in links: a host name or address and an optional port. */
const HOST_PATTERN = /^(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/** The address this request was made to (Express builds request.url from Host and, behind a trusted proxy, X-Forwarded-*). */
function requestOrigin(request: Request): string | undefined {
  if (!URL.canParse(request.url)) return undefined;
  const url = new URL(request.url);
  return HOST_PATTERN.test(url.host) ? url.origin : undefined;
}

/**
 * The configured public address: PUBLIC_URL, else the 'Site address' setting; undefined when neither
 * is set. Emails use only this (never a request's Host header, which whoever asks for a reset link
 * could forge), falling back to the server's own address.
 */
export function configuredSiteUrl(settings: Pick<SiteSettings, "siteUrl">): string | undefined {
  const env = getEnv();
  if (env.PUBLIC_URL) return withoutTrailingSlash(env.PUBLIC_URL);
  return settings.siteUrl ? withoutTrailingSlash(settings.siteUrl) : undefined;
}

/**
 * Where links in pages and feeds (canonical, og:url, RSS, sitemap, share links) start: the configured
 * address, else the address the visitor used (never `localhost` for a site reached by its name).
 */
export async function publicSiteUrl(request: Request): Promise<string> {
  return configuredSiteUrl(await getSiteSettings()) ?? requestOrigin(request) ?? getEnv().publicUrl;
}

/** For emails sent in the background: the configured address, or the server's own. */
export function emailSiteUrl(settings: Pick<SiteSettings, "siteUrl">): string {
  return configuredSiteUrl(settings) ?? getEnv().publicUrl;
}
