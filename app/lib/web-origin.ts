// A host as a browser resolves it: DNS labels (IDN already in punycode), IPv4, or a bracketed IPv6
// address, with an optional port. The URL parser accepts more (";", ",", "!", "$", …), and those break
// or widen the headers an origin is written into (a CSP source list).
const HOST = /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/;

/** The origin of an http(s) address with a plain host, or undefined for anything else. */
export function webOriginOf(value: string): string | undefined {
  if (!/^https?:\/\//i.test(value)) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  return HOST.test(url.host) ? url.origin : undefined;
}

/**
 * A path on this site ("/uploads/a.png"): one leading slash, then no slash or backslash right after it
 * and no backslash, whitespace or control character anywhere. Browsers read "//host/…" and "/\host/…"
 * as another site's address, so those are refused wherever a field takes a site path.
 */
export function isSitePath(value: string): boolean {
  return /^\/(?![/\\])[^\\\s\p{Cc}]*$/u.test(value);
}

/** A site path or an http(s) address with a plain host: where images and the resume may live. */
export function isSitePathOrWebUrl(value: string): boolean {
  return isSitePath(value) || webOriginOf(value) !== undefined;
}
