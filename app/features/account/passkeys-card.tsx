import { KeyRound } from "lucide-react";
import { useState } from "react";
import { Form, useSubmit } from "react-router";
import { FieldError, FormErrors, FormField, SubmitButton, useIsSubmitting, useSchemaForm } from "~/components/forms";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { runPasskeyCeremony } from "~/features/auth/passkey-client";
import { PASSKEY_NAME_LABEL, PASSKEY_NAME_MAX, passkeyNameSchema } from "~/features/auth/passkey-schema";
import type { SubmissionResult } from "~/lib/forms";

export interface PasskeyView {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/** Stable on server and client (no time-zone dependent formatting during hydration). */
function day(iso: string): string {
  return iso.slice(0, 10);
}

/**
 * Passkeys on /admin/account: 'Add a passkey' (named), the list, 'Remove'. A passkey is a second factor
 * after the password, and signs in on its own with 'Sign in with a passkey' on /auth.
 */
export function PasskeysCard({
  passkeys,
  lastResult,
}: {
  passkeys: PasskeyView[];
  /** The last failed passkey form's reply, with its intent. */
  lastResult: { intent: string; result: SubmissionResult<string[]> } | undefined;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2 className="text-xl">Passkeys</h2>
        </CardTitle>
        <CardDescription>
          Sign in with your fingerprint, face or device PIN instead of a password, or use a passkey as the second step after it.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-6">
        {passkeys.length > 0 ? (
          <ul className="divide-y rounded-md border" aria-label="Your passkeys">
            {passkeys.map((p) => (
              <li key={p.id} className="flex flex-wrap items-center gap-x-4 gap-y-2 p-3" data-testid="passkey-row">
                <KeyRound className="size-4 shrink-0 text-muted-foreground" aria-hidden />
                <div className="min-w-0 flex-1">
                  <p className="font-medium break-words">{p.name}</p>
                  <p className="text-sm text-muted-foreground">
                    Added <time dateTime={p.createdAt}>{day(p.createdAt)}</time>
                    {" · "}
                    {p.lastUsedAt ? (
                      <>
                        last used <time dateTime={p.lastUsedAt}>{day(p.lastUsedAt)}</time>
                      </>
                    ) : (
                      "never used"
                    )}
                  </p>
                </div>
                <Form method="post">
                  <input type="hidden" name="intent" value="passkey-remove" />
                  <input type="hidden" name="passkeyId" value={p.id} />
                  <Button type="submit" variant="outline" size="sm">
                    Remove<span className="sr-only"> {p.name}</span>
                  </Button>
                </Form>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-muted-foreground">No passkeys yet.</p>
        )}
        <AddPasskeyForm lastResult={lastResult?.intent === "passkey-add" ? lastResult.result : undefined} />
      </CardContent>
    </Card>
  );
}

function AddPasskeyForm({ lastResult }: { lastResult: SubmissionResult<string[]> | undefined }) {
  const submit = useSubmit();
  const saving = useIsSubmitting({ intent: "passkey-add" });
  const [waiting, setWaiting] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [form, fields] = useSchemaForm({
    id: "passkey-add",
    schema: passkeyNameSchema,
    lastResult,
    // Checked like any form; then the authenticator is asked and its answer posted with the name.
    onSubmit: (event, { formData }) => {
      event.preventDefault();
      setProblem(null);
      setWaiting(true);
      void runPasskeyCeremony("register").then((outcome) => {
        setWaiting(false);
        if ("error" in outcome) {
          setProblem(outcome.error);
          return;
        }
        formData.set("credential", outcome.credential);
        void submit(formData, { method: "post" });
      });
    },
  });
  const credentialErrors = lastResult?.error?.credential ?? undefined;
  return (
    <Form method="post" id={form.id} noValidate={form.noValidate} onSubmit={form.onSubmit} className="grid max-w-md gap-4">
      <input type="hidden" name="intent" value="passkey-add" />
      <FormErrors form={form} />
      <FormField field={fields.name} label={PASSKEY_NAME_LABEL} hint={<p className="text-xs text-muted-foreground">e.g. “Work laptop”.</p>}>
        {(props) => <Input {...props} maxLength={PASSKEY_NAME_MAX} autoComplete="off" />}
      </FormField>
      <FieldError id="passkey-add-credential-error" errors={problem ? [problem] : credentialErrors} />
      <SubmitButton pending={saving || waiting} pendingLabel="Waiting for your passkey…" className="justify-self-start">
        Add a passkey
      </SubmitButton>
    </Form>
  );
}
