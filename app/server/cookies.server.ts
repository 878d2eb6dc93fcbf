import { parse } from "cookie";
import { createCookie, type Cookie, type CookieOptions } from "react-router";
import type { Db } from "./db/client.server";
import { getAppSecret } from "./secret.server";

/**
 * A request cookie's value, or null: the one reader of plain cookies (the session, the sidebar
 * state). A malformed header or value is no cookie, never an error. Signed cookies are signedCookie's.
 */
export function readCookie(request: Request, name: string): string | null {
  const header = request.headers.get("cookie");
  if (!header) return null;
  return parse(header)[name] ?? null;
}

/**
 * THE signed cookie (the toast, the pending sign-in): a React Router Cookie signed with the app secret,
 * made on first use, so a value another site or a script planted, or a tampered one, reads as none.
 */
export function signedCookie(name: string, options: Omit<CookieOptions, "secrets">): (db: Db) => Promise<Cookie> {
  let cookie: Cookie | undefined;
  return async (db) => (cookie ??= createCookie(name, { ...options, secrets: [await getAppSecret(db)] }));
}
