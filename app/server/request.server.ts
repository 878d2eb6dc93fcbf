import { getEnv } from "./env.server";

/**
 * The client's IP address. X-Forwarded-For is honoured only with TRUST_PROXY=true (behind a proxy
 * we control); otherwise the socket address that server/app.ts records in CLIENT_IP_HEADER.
 */
export function clientIp(request: Request): string {
  if (getEnv().TRUST_PROXY) {
    const forwarded = request.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
    if (forwarded) return forwarded;
  }
  return request.headers.get(CLIENT_IP_HEADER) ?? "unknown";
}

/** Set by server/app.ts from the socket, after removing any value a client sent. */
export const CLIENT_IP_HEADER = "x-app-client-ip";

/** Whether the site is served over https (PUBLIC_URL), for Secure cookies. */
function isSecureOrigin(): boolean {
  return getEnv().publicUrl.startsWith("https://");
}

/**
 * Whether this request reached us over https: PUBLIC_URL is https, or — only with TRUST_PROXY=true —
 * the proxy in front says so with X-Forwarded-Proto (first hop).
 */
export function isSecureRequest(request?: Request): boolean {
  if (isSecureOrigin()) return true;
  if (!request || !getEnv().TRUST_PROXY) return false;
  const proto = request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase();
  return proto === "https";
}
