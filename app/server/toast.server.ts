import { redirect, type Cookie } from "react-router";
import { z } from "zod";
import { signedCookie } from "./cookies.server";
import { getDb } from "./db/client.server";

/** A toast carried across a redirect in a short-lived cookie, shown once by the root layout. */
export const toastSchema = z.object({
  title: z.string().max(200),
  description: z.string().max(500).optional(),
  type: z.enum(["success", "error", "info"]).default("success"),
});
export type Toast = z.infer<typeof toastSchema>;

const signedToastCookie = signedCookie("toast", { path: "/", httpOnly: true, sameSite: "lax", maxAge: 60 });

/** Signed with the app secret, so a page never shows a toast another site (or a script) planted. */
function toastCookie(): Promise<Cookie> {
  return signedToastCookie(getDb());
}

export async function clearToastCookie(): Promise<string> {
  return (await toastCookie()).serialize("", { maxAge: 0 });
}

/** Reads the pending toast, if any (a forged or tampered one is none). The caller must send clearToastCookie() with the response. */
export async function readToast(request: Request): Promise<Toast | null> {
  const value: unknown = await (await toastCookie()).parse(request.headers.get("cookie"));
  const parsed = toastSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

export async function redirectWithToast(url: string, toast: Toast, init?: ResponseInit): Promise<Response> {
  const headers = new Headers(init?.headers);
  headers.append("Set-Cookie", await (await toastCookie()).serialize(toast));
  return redirect(url, { ...init, headers });
}
