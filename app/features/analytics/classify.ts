/**
 * What a page view is stored as, from what its request said (pure; the server classifies each
 * buffered view with these before it is written). Only these classes are stored: never the
 * User-Agent or the address themselves.
 */

export type DeviceClass = "desktop" | "mobile" | "tablet";

export interface ClientClass {
  device: DeviceClass;
  browser: string;
  os: string;
}

const BROWSERS: [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\//, "Edge"],
  [/\bOPR\/|\bOpera\b/, "Opera"],
  [/\bSamsungBrowser\//, "Samsung Internet"],
  [/\bVivaldi\//, "Vivaldi"],
  [/\bYaBrowser\//, "Yandex"],
  [/\bFirefox\/|\bFxiOS\//, "Firefox"],
  [/\bCriOS\/|\bChrome\/|\bChromium\//, "Chrome"],
  [/\bVersion\/[\d.]+.*\bSafari\/|\bAppleWebKit\/.*\bMobile\/\w+$/, "Safari"],
  [/\bMSIE |\bTrident\//, "Internet Explorer"],
];

const SYSTEMS: [RegExp, string][] = [
  [/\bWindows\b/, "Windows"],
  [/\b(iPhone|iPad|iPod)\b/, "iOS"],
  [/\bAndroid\b/, "Android"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bMac OS X\b|\bMacintosh\b/, "macOS"],
  [/\bLinux\b/, "Linux"],
];

/** Browser family, OS family and device class of a User-Agent. */
export function classifyClient(userAgent: string): ClientClass {
  const browser = BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1] ?? "Other";
  const os = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1] ?? "Other";
  const tablet = /\biPad\b|\bTablet\b/.test(userAgent) || (os === "Android" && !/\bMobile\b/.test(userAgent));
  const mobile = !tablet && /\bMobi|\biPhone\b|\biPod\b/.test(userAgent);
  return { device: tablet ? "tablet" : mobile ? "mobile" : "desktop", browser, os };
}

/** Hosts of search engines: for them the referrer's path is kept too (they send no query). */
const SEARCH_ENGINES =
  /(^|\.)(google\.[a-z.]+|bing\.com|duckduckgo\.com|search\.yahoo\.com|yandex\.[a-z]+|baidu\.com|ecosia\.org|search\.brave\.com|startpage\.com|qwant\.com|kagi\.com)$/;

/**
 * Known referrer-spam hosts (and their subdomains): views they refer are not counted. The owner adds
 * more in the Statistics settings.
 */
export const REFERRER_SPAM_HOSTS = [
  "semalt.com",
  "buttons-for-website.com",
  "buttons-for-your-website.com",
  "darodar.com",
  "best-seo-offer.com",
  "best-seo-solution.com",
  "free-social-buttons.com",
  "get-free-traffic-now.com",
  "ilovevitaly.com",
  "priceg.com",
  "hulfingtonpost.com",
  "blackhatworth.com",
  "econom.co",
  "savetubevideo.com",
  "kambasoft.com",
  "cenoval.ru",
  "7makemoneyonline.com",
  "trafficmonetize.org",
  "floating-share-buttons.com",
  "simple-share-buttons.com",
  "social-buttons.com",
  "success-seo.com",
  "video--production.com",
  "webmonetizer.net",
  "traffic2money.com",
  "site-auditor.online",
  "seo-platform.com",
  "rank-checker.online",
] as const;

/** Whether `host` is `blocked` or a subdomain of it. */
export function hostMatches(host: string, blocked: string): boolean {
  return host === blocked || host.endsWith(`.${blocked}`);
}

export interface ReferrerClass {
  host: string | null;
  path: string | null;
  spam: boolean;
}

/**
 * The referrer as stored: its host without "www.", and for a search engine its path; none for a
 * page of this site (`ownHost`) or a referrer that is not an http(s) URL. `blocked`: the owner's
 * list of hosts, matched like the spam list.
 */
export function classifyReferrer(referrer: string | undefined, ownHost: string, blocked: readonly string[]): ReferrerClass {
  if (!referrer) return { host: null, path: null, spam: false };
  let url: URL;
  try {
    url = new URL(referrer);
  } catch {
    return { host: null, path: null, spam: false };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return { host: null, path: null, spam: false };
  const host = url.hostname.toLowerCase().replace(/^www\./, "");
  if (url.host.toLowerCase() === ownHost.toLowerCase() || host === ownHost.toLowerCase().replace(/^www\./, "")) {
    return { host: null, path: null, spam: false };
  }
  const spam = [...REFERRER_SPAM_HOSTS, ...blocked].some((listed) => hostMatches(host, listed));
  const path = SEARCH_ENGINES.test(host) ? url.pathname.slice(0, 200) : null;
  return { host: host.slice(0, 253), path, spam };
}

export interface Campaign {
  source: string | null;
  medium: string | null;
  campaign: string | null;
}

const utm = (params: URLSearchParams, name: string) => {
  const value = params.get(name)?.trim().toLowerCase().slice(0, 100);
  return value ? value : null;
};

/** The UTM source, medium and campaign of a request's query string (lower-cased, at most 100 characters each). */
export function campaignOf(search: string): Campaign {
  if (!search.includes("utm_")) return { source: null, medium: null, campaign: null };
  const params = new URLSearchParams(search);
  return { source: utm(params, "utm_source"), medium: utm(params, "utm_medium"), campaign: utm(params, "utm_campaign") };
}

/**
 * The address cut to its network, the part used for the visitor id: IPv4 /24, IPv6 /48 (an
 * IPv4-mapped IPv6 address as IPv4). Null when it is not an address.
 */
export function truncateAddress(address: string): string | null {
  const v4 = /^(?:::ffff:)?(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.\d{1,3}$/i.exec(address);
  if (v4) return `${v4[1]}.${v4[2]}.${v4[3]}.0/24`;
  if (!address.includes(":")) return null;
  const [head = "", tail] = address.toLowerCase().split("::");
  const groups = head === "" ? [] : head.split(":");
  if (groups.length < 3 && tail !== undefined) while (groups.length < 3) groups.push("0");
  if (groups.length < 3 || groups.slice(0, 3).some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return null;
  return `${groups.slice(0, 3).join(":")}::/48`;
}

/** A public page's path as stored: without query or trailing slash, at most 300 characters. */
export function storedPath(path: string): string {
  const bare = path.split(/[?#]/, 1)[0] ?? "/";
  const trimmed = bare.length > 1 ? bare.replace(/\/+$/, "") : bare;
  return (trimmed || "/").slice(0, 300);
}

/** A blog post's path (/7fs/Category/slug): the pages "last post read" and per-post figures are about. */
export const POST_PATH = /^\/7fs\/[^/]+\/[^/]+$/;
