import { getEnv } from "~/server/env.server";
import type { SiteSettings } from "./settings-schema";
import { getSiteSettings } from "./settings.server";

function withoutTrailingSlash(url: string): string {
  return url.replace(/\/+$/, "");
}

/**
 * The configured public address: PUBLIC_URL, else the 'Site address' setting; undefined when neither
 * is set.
 */
export function configuredSiteUrl(settings: Pick<SiteSettings, "siteUrl">): string | undefined {
  const env = getEnv();
  if (env.PUBLIC_URL) return withoutTrailingSlash(env.PUBLIC_URL);
  return settings.siteUrl ? withoutTrailingSlash(settings.siteUrl) : undefined;
}

/**
 * The site's address, where every absolute link starts (pages, feeds, sitemaps, emails, passkeys):
 * the configured address, else the server's own (http://localhost:PORT). Never a request's Host or
 * X-Forwarded-* headers, which whoever sends the request chooses.
 */
export function siteUrlOf(settings: Pick<SiteSettings, "siteUrl">): string {
  return configuredSiteUrl(settings) ?? getEnv().publicUrl;
}

/** The site's address for pages and feeds (see siteUrlOf). */
export async function publicSiteUrl(): Promise<string> {
  return siteUrlOf(await getSiteSettings());
}

/** For emails sent in the background: the same address. */
export const emailSiteUrl = siteUrlOf;

/** Host names on this machine: always answered (health checks, a proxy that passes its own upstream name, the warm-up). */
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** A Host header's host name, lower case, without port or trailing dot. */
export function hostNameOf(host: string): string {
  const name = host.startsWith("[") ? host.slice(0, host.indexOf("]") + 1) : host.split(":")[0];
  return (name ?? "").toLowerCase().replace(/\.$/, "");
}

/**
 * Whether a request's host (Host, or with TRUST_PROXY the proxy's X-Forwarded-Host) is one this site
 * answers for: the site address's host name (any port: links never come from the request anyway)
 * or a loopback name. Others are answered 421, so no cache in front or here keeps a page under a
 * host name someone made up.
 */
export function isSiteHost(host: string, settings: Pick<SiteSettings, "siteUrl">): boolean {
  const name = hostNameOf(host);
  return LOOPBACK_HOSTS.has(name) || name === new URL(siteUrlOf(settings)).hostname.toLowerCase();
}

/** What start-up and `doctor` say when no site address is configured; undefined when one is. */
export function missingSiteAddressNotice(settings: Pick<SiteSettings, "siteUrl">): string | undefined {
  if (configuredSiteUrl(settings)) return undefined;
  return `No site address is set: links in pages, feeds and emails use ${getEnv().publicUrl}, and the site answers only there and on localhost; any other host name gets 421 Misdirected Request. Set PUBLIC_URL to the site's public address (e.g. https://example.com), or the Site address in the admin's Settings.`;
}
