import { Eye, EyeOff, Loader2 } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { data, Form, redirect, useActionData, useLocation, useRouteLoaderData } from "react-router";
import { toast } from "~/components/toaster";
import { FormField, isFormIntent, SubmitButton, useIsSubmitting, useSchemaForm } from "~/components/forms";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import {
  cancelPendingSignIn,
  completePasskeySecondFactor,
  completeTwoFactorSignIn,
  pendingSecondFactor,
  signIn,
  signInWithPasskey,
} from "~/features/auth/auth.server";
import { PasskeyButton } from "~/features/auth/passkey-button";
import { TwoFactorStep } from "~/features/auth/two-factor-step";
import { AUTH_SCHEMAS, type AuthMode as Mode } from "~/features/auth/auth-schema";
import {
  PASSWORD_UPDATED,
  PASSWORDS_DIFFER,
  RESET_EMAIL_SENT,
  RESET_UNAVAILABLE,
  SIGNED_IN_WITHOUT_ADMIN,
  WELCOME_BACK,
} from "~/features/auth/auth-messages";
import { requestPasswordReset, updatePasswordWithToken } from "~/features/auth/password-reset.server";
import { clearSessionCookie, getSessionUser, lookupRole } from "~/features/auth/session.server";
import { ENTER_CODE, twoFactorCodeSchema } from "~/features/auth/two-factor-schema";
import { HumanVerification } from "~/features/verification/human-verification";
import { VERIFICATION_REQUIRED, type VerificationConfig } from "~/features/verification/verification";
import { getVerificationConfig } from "~/features/verification/verification.server";
import { firstMessage, parseSubmission, type Submission, type SubmissionResult } from "~/lib/forms";
import { PASSWORD_MIN_LENGTH } from "~/lib/password-policy";
import { canEdit } from "~/lib/permissions";
import { seoContext, seoMeta } from "~/lib/seo";
import { getDb, type Db } from "~/server/db/client.server";
import { readForm } from "~/server/form.server";
import { failureReply, replyWithoutSecrets } from "~/server/form-reply.server";
import { redirectWithToast } from "~/server/toast.server";
import type { Route } from "./+types/auth";

export function meta({ matches }: Route.MetaArgs) {
  return seoMeta(seoContext(matches), {
    title: "Admin Login",
    description: "Sign in to manage the site.",
    path: "/auth",
    noindex: true,
  });
}

export async function loader({ request }: Route.LoaderArgs) {
  // SPEC §6: an existing session on /auth goes to /admin — unless the admin area would only refuse them.
  const sessionUser = await getSessionUser(request);
  if (sessionUser) throw redirect(canEdit(sessionUser) ? "/admin" : "/");
  // A right password waiting for its second factor: this page asks for the code.
  return { verification: getVerificationConfig(), twoFactor: await pendingSecondFactor(getDb(), request) };
}

/** A failed submission: its toast (SPEC §8) and Conform's reply (field errors under their fields). */
interface AuthActionResult {
  intent: Mode | "2fa" | "2fa-passkey" | "passkey";
  title: string;
  description: string;
  result?: SubmissionResult<string[]>;
}

function failure(intent: AuthActionResult["intent"], error: unknown, submission?: Submission<unknown>) {
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

/** The toast for a submission the schema refused: the spec's mismatch toast, or the first message. */
function invalidToast(result: SubmissionResult<string[]>): { title: string; description: string } {
  if (result.error?.confirmPassword?.includes(PASSWORDS_DIFFER.title)) return PASSWORDS_DIFFER;
  return { title: "Error", description: firstMessage(result) ?? "Please check the form." };
}

export async function action({ request }: Route.ActionArgs) {
  let form: FormData;
  try {
    form = await readForm(request);
  } catch (error) {
    return failure("login", error);
  }
  const field = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : undefined;
  };
  const intentValue = field("intent");
  // The second step has no verification widget: the password step had one, and the pending sign-in is its proof.
  if (intentValue === "2fa") return secondFactor(request, form);
  if (intentValue === "2fa-passkey") return passkeySecondFactor(request, form);
  // A passkey with user verification is both factors: no password, so no verification widget either.
  if (intentValue === "passkey") return passkeySignIn(request, form);
  if (intentValue === "2fa-cancel") {
    return redirect("/auth", { headers: { "Set-Cookie": await cancelPendingSignIn(getDb(), request) } });
  }
  const intent: Mode = intentValue === "forgot" || intentValue === "update" ? intentValue : "login";
  const submission = parseSubmission(form, AUTH_SCHEMAS[intent]);
  const verificationToken = field("verificationToken");
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
        { email: field("email"), password: field("password"), verificationToken },
        request,
      );
      const headers = { "Set-Cookie": setCookie };
      if (twoFactor) return redirect("/auth", { headers });
      return await signedInRedirect(db, userId, headers);
    }
    if (intent === "forgot") {
      await requestPasswordReset(db, { email: field("email"), verificationToken }, request);
      return await redirectWithToast("/auth", { ...RESET_EMAIL_SENT, type: "success" });
    }
    await updatePasswordWithToken(
      db,
      { token: field("token"), password: field("password"), confirmPassword: field("confirmPassword"), verificationToken },
      request,
    );
    // Every session of the user has ended; clear this browser's cookie too and go back to login.
    return await redirectWithToast(
      "/auth",
      { ...PASSWORD_UPDATED, type: "success" },
      { headers: { "Set-Cookie": clearSessionCookie(request) } },
    );
  } catch (error) {
    return failure(intent, error, submission);
  }
}

async function secondFactor(request: Request, form: FormData) {
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
    return await signedInRedirect(
      db,
      userId,
      setCookies.map((cookie): [string, string] => ["Set-Cookie", cookie]),
    );
  } catch (error) {
    return failure("2fa", error, submission);
  }
}

async function passkeySecondFactor(request: Request, form: FormData) {
  try {
    const db = getDb();
    const { userId, setCookies } = await completePasskeySecondFactor(db, { credential: form.get("credential") }, request);
    return await signedInRedirect(
      db,
      userId,
      setCookies.map((cookie): [string, string] => ["Set-Cookie", cookie]),
    );
  } catch (error) {
    return failure("2fa-passkey", error);
  }
}

async function passkeySignIn(request: Request, form: FormData) {
  try {
    const db = getDb();
    const { userId, setCookie } = await signInWithPasskey(db, { credential: form.get("credential") }, request);
    return await signedInRedirect(db, userId, { "Set-Cookie": setCookie });
  } catch (error) {
    return failure("passkey", error);
  }
}

/** Reads `#type=recovery&token=…` from a reset email's link. */
function readRecoveryFragment(): string | null {
  const params = new URLSearchParams(window.location.hash.replace(/^#/, ""));
  if (params.get("type") !== "recovery") return null;
  return params.get("token") ?? "";
}

export default function AuthPage({ loaderData }: Route.ComponentProps) {
  if (loaderData.twoFactor) return <TwoFactorStep {...loaderData.twoFactor} />;
  return <AuthForms verification={loaderData.verification} />;
}

function AuthForms({ verification }: { verification: VerificationConfig }) {
  const location = useLocation();
  const firstLocation = useRef(location.key);
  const [formKey, setFormKey] = useState(0);
  const [mode, setMode] = useState<Mode>("login");
  const mailConfigured = (useRouteLoaderData("root") as { mailConfigured?: boolean } | undefined)?.mailConfigured ?? true;
  const [recoveryToken, setRecoveryToken] = useState("");
  const [verificationToken, setVerificationToken] = useState<string | null>(null);
  const [resetKey, setResetKey] = useState(0);
  const [showPassword, setShowPassword] = useState(false);
  const actionData = useActionData<typeof action>();
  const loading = useIsSubmitting();
  const schema = AUTH_SCHEMAS[mode];
  const [form, fields] = useSchemaForm({
    id: "auth",
    schema,
    // Checked when sent, not as each field loses focus: an error appearing under Password as the
    // visitor clicks the verification checkbox below it would move the checkbox away from the click.
    shouldValidate: "onSubmit",
    lastResult: actionData?.intent === mode ? actionData.result : undefined,
  });

  // A redirect back here (after a reset request or a password update) starts afresh in login mode;
  // a failed submission (action data, same page) keeps the mode and what was typed.
  useEffect(() => {
    if (location.key === firstLocation.current || actionData) return;
    firstLocation.current = location.key;
    setMode("login");
    setRecoveryToken("");
    setVerificationToken(null);
    setResetKey((k) => k + 1);
    setFormKey((k) => k + 1);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a new location starts over
  }, [location.key]);

  // Recovery mode: on arrival from the email link, or when the fragment changes on an open page.
  useEffect(() => {
    const enterRecovery = () => {
      const token = readRecoveryFragment();
      if (token === null) return;
      setRecoveryToken(token);
      setMode("update");
      setVerificationToken(null);
      setResetKey((k) => k + 1);
      // The token must not linger in the address bar or history.
      window.history.replaceState(window.history.state, "", window.location.pathname + window.location.search);
    };
    enterRecovery();
    window.addEventListener("hashchange", enterRecovery);
    return () => window.removeEventListener("hashchange", enterRecovery);
  }, []);

  useEffect(() => {
    if (!actionData) return;
    toast.error(actionData.title, { description: actionData.description });
    // Tokens are single-use: after any failure the widget starts over.
    setVerificationToken(null);
    setResetKey((k) => k + 1);
  }, [actionData]);

  const switchMode = (next: Mode) => {
    setMode(next);
    setVerificationToken(null);
    setResetKey((k) => k + 1);
  };

  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    if (isFormIntent(event)) {
      form.onSubmit(event);
      return;
    }
    if (!verificationToken) {
      event.preventDefault();
      toast.error(VERIFICATION_REQUIRED.title, { description: VERIFICATION_REQUIRED.description });
      return;
    }
    form.onSubmit(event);
    // Refused by the shared schema before sending: the verification token stays valid for the retry.
    if (event.defaultPrevented) {
      const result = parseSubmission(new FormData(event.currentTarget), schema).reply();
      // Field errors show beside their fields; the mismatch and the (hidden) reset link get a toast.
      if (result.error?.confirmPassword || result.error?.token) {
        const message = invalidToast(result);
        toast.error(message.title, { description: message.description });
      }
    }
  };

  const heading = mode === "login" ? "Admin Login" : mode === "forgot" ? "Reset Password" : "Update Password";
  const description =
    mode === "login"
      ? "Sign in to manage your content."
      : mode === "forgot"
        ? mailConfigured
          ? "Enter your email and we'll send you a link to reset your password."
          : RESET_UNAVAILABLE
        : "Choose a new password for your account.";
  const submitLabel = mode === "login" ? "Sign In" : mode === "forgot" ? "Send Reset Link" : "Update Password";

  return (
    <section className="mx-auto flex max-w-md flex-col px-4 py-16">
      <Card>
        <CardHeader>
          <CardTitle>
            <h1 className="text-2xl font-bold">{heading}</h1>
          </CardTitle>
          <CardDescription>{description}</CardDescription>
        </CardHeader>
        <CardContent>
          {mode === "forgot" && !mailConfigured ? null : (
            <Form method="post" key={formKey} id={form.id} noValidate={form.noValidate} className="flex flex-col gap-4" onSubmit={onSubmit}>
              <input type="hidden" name="intent" value={mode} />
              {mode !== "update" ? (
                <FormField field={fields.email} id="email" label="Email">
                  {(props) => <Input {...props} type="email" autoComplete="email" />}
                </FormField>
              ) : (
                <input type="hidden" name="token" value={recoveryToken} />
              )}
              {mode !== "forgot" ? (
                <FormField
                  field={fields.password}
                  id="password"
                  label={mode === "update" ? "New Password" : "Password"}
                  hint={
                    mode === "update" ? <p className="text-xs text-muted-foreground">At least {PASSWORD_MIN_LENGTH} characters.</p> : null
                  }
                >
                  {(props) => (
                    <div className="relative">
                      <Input
                        {...props}
                        type={showPassword ? "text" : "password"}
                        autoComplete={mode === "update" ? "new-password" : "current-password"}
                        className="pr-10"
                      />
                      <button
                        type="button"
                        onClick={() => setShowPassword((v) => !v)}
                        aria-label={showPassword ? "Hide password" : "Show password"}
                        aria-pressed={showPassword}
                        aria-controls="password"
                        className="absolute inset-y-0 right-0 flex w-10 items-center justify-center rounded-r-md text-muted-foreground hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring"
                      >
                        {showPassword ? <EyeOff className="size-4" aria-hidden /> : <Eye className="size-4" aria-hidden />}
                      </button>
                    </div>
                  )}
                </FormField>
              ) : null}
              {mode === "update" ? (
                <FormField field={fields.confirmPassword} id="confirmPassword" label="Confirm Password">
                  {(props) => <Input {...props} type={showPassword ? "text" : "password"} autoComplete="new-password" />}
                </FormField>
              ) : null}
              <HumanVerification config={verification} onToken={setVerificationToken} resetKey={resetKey} />
              <SubmitButton
                pending={loading}
                disabled={!verificationToken}
                pendingLabel={
                  <>
                    <Loader2 className="animate-spin" aria-hidden />
                    Loading...
                  </>
                }
              >
                {submitLabel}
              </SubmitButton>
            </Form>
          )}
          <div className="mt-4 text-center text-sm">
            {mode === "login" ? (
              <button type="button" className="text-primary underline-offset-4 hover:underline" onClick={() => switchMode("forgot")}>
                Forgot password?
              </button>
            ) : mode === "forgot" ? (
              <button type="button" className="text-primary underline-offset-4 hover:underline" onClick={() => switchMode("login")}>
                Back to login
              </button>
            ) : null}
          </div>
          {mode === "login" ? (
            <div className="mt-6 flex flex-col gap-3">
              <p className="flex items-center gap-3 text-xs text-muted-foreground uppercase before:h-px before:flex-1 before:bg-border after:h-px after:flex-1 after:bg-border">
                or
              </p>
              <PasskeyButton purpose="sign-in" intent="passkey">
                Sign in with a passkey
              </PasskeyButton>
            </div>
          ) : null}
        </CardContent>
      </Card>
    </section>
  );
}
