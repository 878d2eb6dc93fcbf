import { redirect } from "react-router";
import { z } from "zod";

/** A toast carried across a redirect in a short-lived cookie, shown once by the root layout. */
export const toastSchema = z.object({
  title: z.string().max(200),
  description: z.string().max(500).optional(),
  type: z.enum(["success", "error", "info"]).default("success"),
});
export type Toast = z.infer<typeof toastSchema>;

const TOAST_COOKIE = "toast";

export function toastCookie(toast: Toast): string {
  const value = Buffer.from(JSON.stringify(toast)).toString("base64url");
  return `${TOAST_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=60`;
}

export function clearToastCookie(): string {
  return `${TOAST_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`;
}

/** Reads the pending toast, if any. The caller must send clearToastCookie() with the response. */
export function readToast(request: Request): Toast | null {
  const raw = request.headers
    .get("cookie")
    ?.split(";")
    .map((p) => p.trim())
    .find((p) => p.startsWith(`${TOAST_COOKIE}=`))
    ?.slice(TOAST_COOKIE.length + 1);
  if (!raw) return null;
  try {
    const parsed = toastSchema.safeParse(JSON.parse(Buffer.from(raw, "base64url").toString("utf8")));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function redirectWithToast(url: string, toast: Toast, init?: ResponseInit): Response {
  const headers = new Headers(init?.headers);
  headers.append("Set-Cookie", toastCookie(toast));
  return redirect(url, { ...init, headers });
}
