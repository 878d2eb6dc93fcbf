import { data } from "react-router";
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

/** Whether the site is served over https, for Secure cookies. */
export function isSecureOrigin(): boolean {
  return getEnv().publicUrl.startsWith("https://");
}

/**
 * The form of a POST, or a 400 a person can act on when the body is not a readable form (wrong or
 * missing content type, a broken multipart body) — never a 500.
 */
export async function readFormData(request: Request): Promise<FormData> {
  try {
    return await request.formData();
  } catch {
    throw data("The form could not be read. Please reload the page and try again.", { status: 400 });
  }
}
