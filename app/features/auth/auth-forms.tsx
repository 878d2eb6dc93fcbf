import { Eye, EyeOff, Loader2 } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Form, useLocation, useRouteLoaderData } from "react-router";
import { toast } from "~/components/toaster";
import { FormField, isFormIntent, SubmitButton, useIsSubmitting, useSchemaForm } from "~/components/forms";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { PasskeyButton } from "~/features/auth/passkey-button";
import { AUTH_SCHEMAS, type AuthMode as Mode } from "~/features/auth/auth-schema";
import { PASSWORDS_DIFFER, RESET_UNAVAILABLE } from "~/features/auth/auth-messages";
import { HumanVerification } from "~/features/verification/human-verification";
import { VERIFICATION_REQUIRED, type VerificationConfig } from "~/features/verification/verification";
import { firstMessage, parseSubmission, type SubmissionResult } from "~/lib/forms";
import { PASSWORD_MIN_LENGTH } from "~/lib/password-policy";

/** A failed submission on /auth: its toast (SPEC §8) and Conform's reply (field errors under their fields). */
export interface AuthActionResult {
  intent: Mode | "2fa" | "2fa-passkey" | "passkey";
  title: string;
  description: string;
  result?: SubmissionResult<string[]>;
}

/** The toast for a submission the schema refused: the spec's mismatch toast, or the first message. */
export function invalidToast(result: SubmissionResult<string[]>): { title: string; description: string } {
  if (result.error?.confirmPassword?.includes(PASSWORDS_DIFFER.title)) return PASSWORDS_DIFFER;
  return { title: "Error", description: firstMessage(result) ?? "Please check the form." };
}

/** Reads `#type=recovery&token=…` from a reset email's link. */
function readRecoveryFragment(): string | null {
  const params = new URLSearchParams(window.location.hash.replace(/^#/, ""));
  if (params.get("type") !== "recovery") return null;
  return params.get("token") ?? "";
}

/** The sign-in, forgot-password and update-password forms (one card, one mode at a time). */
export function AuthForms({ verification, actionData }: { verification: VerificationConfig; actionData: AuthActionResult | undefined }) {
  const location = useLocation();
  const firstLocation = useRef(location.key);
  const [formKey, setFormKey] = useState(0);
  const [mode, setMode] = useState<Mode>("login");
  const [recoveryToken, setRecoveryToken] = useState("");
  const [verificationToken, setVerificationToken] = useState<string | null>(null);
  const [resetKey, setResetKey] = useState(0);
  const [showPassword, setShowPassword] = useState(false);
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

  const mailConfigured = (useRouteLoaderData("root") as { mailConfigured?: boolean } | undefined)?.mailConfigured ?? true;
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
