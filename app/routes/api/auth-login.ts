import { signIn } from "~/features/auth/auth.server";
import { getDb } from "~/server/db/client.server";
import { apiFailure } from "~/server/failure-reply.server";
import { LIMITS } from "~/server/limits.server";
import type { Route } from "./+types/auth-login";

/** POST /api/auth/login — JSON {email, password, verificationToken}; sets the session cookie. */
export async function action({ request }: Route.ActionArgs) {
  const length = Number(request.headers.get("content-length") ?? "0");
  if (Number.isFinite(length) && length > LIMITS.loginJson) {
    return Response.json({ error: "Request body is too large." }, { status: 413 });
  }
  let body: unknown;
  try {
    const text = await request.text();
    if (text.length > LIMITS.loginJson) return Response.json({ error: "Request body is too large." }, { status: 413 });
    body = JSON.parse(text);
  } catch {
    return Response.json({ error: 'Request body must be JSON: {"email", "password", "verificationToken"}.' }, { status: 400 });
  }
  try {
    const { setCookie, twoFactor } = await signIn(getDb(), body, request);
    // The account has two-factor authentication: no session yet; the code is entered on /auth.
    if (twoFactor) return Response.json({ ok: false, twoFactorRequired: true, next: "/auth" }, { headers: { "Set-Cookie": setCookie } });
    return Response.json({ ok: true }, { headers: { "Set-Cookie": setCookie } });
  } catch (error) {
    return apiFailure(error);
  }
}
