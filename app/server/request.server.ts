import { getEnv } from "./env.server";

/**
 * The client's IP address, computed once per request by server/app.ts (Express `trust proxy` from
 * TRUST_PROXY: X-Forwarded-For read from the right, past the trusted proxies only).
 */
export function clientIp(request: Request): string {
  return request.headers.get(CLIENT_IP_HEADER) ?? "unknown";
}

/** Set by server/app.ts for every request, replacing any value a client sent. */
export const CLIENT_IP_HEADER = "x-app-client-ip";

/** Whether the site is served over https (PUBLIC_URL), for Secure cookies. */
function isSecureOrigin(): boolean {
  return getEnv().publicUrl.startsWith("https://");
}

/**
 * Whether this request reached us over https: PUBLIC_URL is https, or — only with TRUST_PROXY set —
 * the proxy in front says so with X-Forwarded-Proto (first hop).
 */
export function isSecureRequest(request?: Request): boolean {
  if (isSecureOrigin()) return true;
  if (!request || !getEnv().TRUST_PROXY) return false;
  const proto = request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase();
  return proto === "https";
}
