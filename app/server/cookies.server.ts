import { parse } from "cookie";

/**
 * A request cookie's value, or null: the one reader of plain cookies (the session, the sidebar
 * state). A malformed header or value is no cookie, never an error. The toast cookie is signed and
 * read by its own React Router Cookie (toast.server.ts).
 */
export function readCookie(request: Request, name: string): string | null {
  const header = request.headers.get("cookie");
  if (!header) return null;
  return parse(header)[name] ?? null;
}
