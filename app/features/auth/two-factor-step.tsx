import { Loader2 } from "lucide-react";
import { useEffect } from "react";
import { Form, useActionData } from "react-router";
import { toast } from "~/components/toaster";
import { FormField, SubmitButton, useIsSubmitting, useSchemaForm } from "~/components/forms";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import type { SubmissionResult } from "~/lib/forms";
import { PasskeyButton } from "./passkey-button";
import { CODE_LABEL, twoFactorCodeSchema } from "./two-factor-schema";

interface StepActionData {
  intent: string;
  title: string;
  description: string;
  result?: SubmissionResult<string[]>;
}

/** What the step asks for: only the factors the account has (plus its recovery codes). */
function stepDescription(passkey: boolean, app: boolean): string {
  if (!passkey) return "Enter the 6-digit code from your authenticator app, or one of your recovery codes.";
  if (!app) return "Use your passkey, or enter one of your recovery codes.";
  return "Use your passkey, or enter the 6-digit code from your authenticator app or one of your recovery codes.";
}

/**
 * /auth after a right password on an account with two-factor authentication: a code or, for a user with
 * passkeys, a passkey; then the session.
 */
export function TwoFactorStep({ passkey, app }: { passkey: boolean; app: boolean }) {
  const actionData = useActionData<StepActionData>();
  const failed = actionData?.intent === "2fa" || actionData?.intent === "2fa-passkey" ? actionData : undefined;
  const verifying = useIsSubmitting({ intent: "2fa" });
  const [form, fields] = useSchemaForm({
    id: "two-factor",
    schema: twoFactorCodeSchema,
    lastResult: failed?.intent === "2fa" ? failed.result : undefined,
  });

  useEffect(() => {
    if (failed) toast.error(failed.title, { description: failed.description });
  }, [failed]);

  return (
    <section className="mx-auto flex max-w-md flex-col px-4 py-16">
      <Card>
        <CardHeader>
          <CardTitle>
            <h1 className="text-2xl font-bold">Two-factor authentication</h1>
          </CardTitle>
          <CardDescription>{stepDescription(passkey, app)}</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          {passkey ? (
            <PasskeyButton purpose="second-factor" intent="2fa-passkey">
              Use a passkey
            </PasskeyButton>
          ) : null}
          <Form method="post" id={form.id} noValidate={form.noValidate} onSubmit={form.onSubmit} className="flex flex-col gap-4">
            <input type="hidden" name="intent" value="2fa" />
            <FormField field={fields.code} label={CODE_LABEL}>
              {(props) => <Input {...props} autoComplete="one-time-code" autoCapitalize="off" spellCheck={false} autoFocus />}
            </FormField>
            <SubmitButton
              pending={verifying}
              pendingLabel={
                <>
                  <Loader2 className="animate-spin" aria-hidden />
                  Verifying...
                </>
              }
            >
              Verify
            </SubmitButton>
          </Form>
          <Form method="post" className="text-center">
            <input type="hidden" name="intent" value="2fa-cancel" />
            <Button type="submit" variant="link" size="sm">
              Back to login
            </Button>
          </Form>
        </CardContent>
      </Card>
    </section>
  );
}
