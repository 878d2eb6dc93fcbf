import { data, redirect } from "react-router";
import {
  cancelPendingSignIn,
  completePasskeySecondFactor,
  completeTwoFactorSignIn,
  signIn,
  signInWithPasskey,
} from "~/features/auth/auth.server";
import { invalidToast, type AuthActionResult } from "~/features/auth/auth-forms";
import { PASSWORD_UPDATED, RESET_EMAIL_SENT, SIGNED_IN_WITHOUT_ADMIN, WELCOME_BACK } from "~/features/auth/auth-messages";
import { AUTH_SCHEMAS, type AuthMode } from "~/features/auth/auth-schema";
import { requestPasswordReset, updatePasswordWithToken } from "~/features/auth/password-reset.server";
import { clearSessionCookie, lookupRole } from "~/features/auth/session.server";
import { ENTER_CODE, twoFactorCodeSchema } from "~/features/auth/two-factor-schema";
import { VERIFICATION_REQUIRED } from "~/features/verification/verification";
import { firstMessage, parseSubmission, type Submission } from "~/lib/forms";
import { canEdit } from "~/lib/permissions";
import { getDb, type Db } from "~/server/db/client.server";
import { failureReply, replyWithoutSecrets } from "~/server/failure-reply.server";
import { redirectWithToast } from "~/server/toast.server";

/** The /auth form's steps: each reads what it needs from the posted form and answers the page. */

export function authFailure(intent: AuthActionResult["intent"], error: unknown, submission?: Submission<unknown>) {
  // The message is the toast's; the form shows only field errors.
  const { status, headers, error: description, result } = failureReply(error, submission, { formError: false });
  return data<AuthActionResult>({ intent, title: "Error", description, result }, { status, headers });
}

/** Signed in: staff go to the admin area; anyone else home, told the admin area needs an editor role. */
async function signedInRedirect(db: Db, userId: string, headers: HeadersInit) {
  if (canEdit({ id: userId, role: await lookupRole(db, userId) })) {
    return await redirectWithToast("/admin", { ...WELCOME_BACK, type: "success" }, { headers });
  }
  return await redirectWithToast("/", { ...SIGNED_IN_WITHOUT_ADMIN, type: "success" }, { headers });
}

const setCookieHeaders = (cookies: string[]) => cookies.map((cookie): [string, string] => ["Set-Cookie", cookie]);

function field(form: FormData, name: string): string | undefined {
  const value = form.get(name);
  return typeof value === "string" ? value : undefined;
}

/** The password step: sign in, ask for a reset link, or set a new password (all behind the verification widget). */
export async function passwordStep(request: Request, form: FormData, intent: AuthMode) {
  const submission = parseSubmission(form, AUTH_SCHEMAS[intent]);
  const verificationToken = field(form, "verificationToken");
  if (!verificationToken) {
    return data<AuthActionResult>({ intent, ...VERIFICATION_REQUIRED, result: replyWithoutSecrets(submission) }, { status: 400 });
  }
  if (submission.status !== "success") {
    const result = replyWithoutSecrets(submission);
    return data<AuthActionResult>({ intent, ...invalidToast(result), result }, { status: 400 });
  }
  const db = getDb();
  try {
    if (intent === "login") {
      const { userId, setCookie, twoFactor } = await signIn(
        db,
        { email: field(form, "email"), password: field(form, "password"), verificationToken },
        request,
      );
      const headers = { "Set-Cookie": setCookie };
      if (twoFactor) return redirect("/auth", { headers });
      return await signedInRedirect(db, userId, headers);
    }
    if (intent === "forgot") {
      await requestPasswordReset(db, { email: field(form, "email"), verificationToken }, request);
      return await redirectWithToast("/auth", { ...RESET_EMAIL_SENT, type: "success" });
    }
    await updatePasswordWithToken(
      db,
      {
        token: field(form, "token"),
        password: field(form, "password"),
        confirmPassword: field(form, "confirmPassword"),
        verificationToken,
      },
      request,
    );
    // Every session of the user has ended; clear this browser's cookie too and go back to login.
    return await redirectWithToast(
      "/auth",
      { ...PASSWORD_UPDATED, type: "success" },
      { headers: { "Set-Cookie": clearSessionCookie(request) } },
    );
  } catch (error) {
    return authFailure(intent, error, submission);
  }
}

/** The second step with an authenticator app's code or a recovery code. */
export async function secondFactor(request: Request, form: FormData) {
  const submission = parseSubmission(form, twoFactorCodeSchema);
  if (submission.status !== "success") {
    const result = replyWithoutSecrets(submission);
    return data<AuthActionResult>(
      { intent: "2fa", title: "Error", description: firstMessage(result) ?? ENTER_CODE, result },
      { status: 400 },
    );
  }
  try {
    const db = getDb();
    const { userId, setCookies } = await completeTwoFactorSignIn(db, { code: form.get("code") }, request);
    return await signedInRedirect(db, userId, setCookieHeaders(setCookies));
  } catch (error) {
    return authFailure("2fa", error, submission);
  }
}

/** The second step with a passkey. */
export async function passkeySecondFactor(request: Request, form: FormData) {
  try {
    const db = getDb();
    const { userId, setCookies } = await completePasskeySecondFactor(db, { credential: form.get("credential") }, request);
    return await signedInRedirect(db, userId, setCookieHeaders(setCookies));
  } catch (error) {
    return authFailure("2fa-passkey", error);
  }
}

/** A passkey with user verification is both factors: no password, so no verification widget either. */
export async function passkeySignIn(request: Request, form: FormData) {
  try {
    const db = getDb();
    const { userId, setCookie } = await signInWithPasskey(db, { credential: form.get("credential") }, request);
    return await signedInRedirect(db, userId, { "Set-Cookie": setCookie });
  } catch (error) {
    return authFailure("passkey", error);
  }
}

/** 'Use another account' on the second step: the pending sign-in ends. */
export async function cancelSecondFactor(request: Request) {
  return redirect("/auth", { headers: { "Set-Cookie": await cancelPendingSignIn(getDb(), request) } });
}
