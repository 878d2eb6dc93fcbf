import { Download } from "lucide-react";
import { Form } from "react-router";
import { CopyButton } from "~/components/copy-button";
import { FormErrors, FormField, SubmitButton, useIsSubmitting, useSchemaForm } from "~/components/forms";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { CODE_LABEL, DISABLE_LABEL, totpConfirmSchema, twoFactorDisableSchema } from "~/features/auth/two-factor-schema";
import type { SubmissionResult } from "~/lib/forms";

/** What the account page's loader says about the user's second factor (nothing secret but a pending setup's own key). */
export interface TwoFactorView {
  /** The authenticator app is on. */
  enabled: boolean;
  /** The app or a passkey: recovery codes are counted and can be renewed. */
  secondFactor: boolean;
  pending: { secret: string; qrDataUrl: string } | null;
  recoveryCodesLeft: number;
  /** The site requires 2FA for this user's role and it is not on yet. */
  required: boolean;
}

/** The secret as people type it: groups of four. */
function grouped(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, "$1 ");
}

/**
 * Two-factor authentication on /admin/account: set up an authenticator app (QR code or the key typed
 * in), confirm with a first code, keep the recovery codes, turn it off with the password or a code.
 * With passkeys only, the recovery codes are theirs: counted here and renewed here too.
 */
export function TwoFactorCard({
  view,
  recoveryCodes,
  lastResult,
}: {
  view: TwoFactorView;
  /** Just issued: shown this once. */
  recoveryCodes: string[] | undefined;
  /** The last failed 2FA form's reply, with its intent. */
  lastResult: { intent: string; result: SubmissionResult<string[]> } | undefined;
}) {
  const starting = useIsSubmitting({ intent: "2fa-start" });
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2 className="text-xl">Two-factor authentication</h2>
        </CardTitle>
        <CardDescription>
          {view.enabled
            ? `On. Signing in asks for a code from your authenticator app. ${view.recoveryCodesLeft} of 10 recovery codes left.`
            : view.secondFactor
              ? `On with your passkeys. Signing in with your password asks for one. ${view.recoveryCodesLeft} of 10 recovery codes left.`
              : "Off. Add an authenticator app so a stolen password alone cannot sign in to your account."}
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-6">
        {view.required && !view.enabled ? (
          <p role="alert" className="rounded-md border border-amber-400 bg-amber-50 p-3 text-sm text-amber-950">
            This site requires two-factor authentication for administrators and moderators. Set it up to continue to the admin area.
          </p>
        ) : null}
        {recoveryCodes ? <RecoveryCodes codes={recoveryCodes} /> : null}
        {view.enabled ? (
          <CredentialForm
            intent="2fa-disable"
            submitLabel="Turn off two-factor authentication"
            pendingLabel="Turning off…"
            destructive
            lastResult={lastResult?.intent === "2fa-disable" ? lastResult.result : undefined}
          />
        ) : view.pending ? (
          <PendingSetup pending={view.pending} lastResult={lastResult?.intent === "2fa-confirm" ? lastResult.result : undefined} />
        ) : (
          <Form method="post">
            <input type="hidden" name="intent" value="2fa-start" />
            <SubmitButton pending={starting} pendingLabel="Preparing…">
              Set up authenticator app
            </SubmitButton>
          </Form>
        )}
        {view.secondFactor ? (
          <CredentialForm
            intent="2fa-recovery-codes"
            submitLabel="New recovery codes"
            pendingLabel="Creating…"
            lastResult={lastResult?.intent === "2fa-recovery-codes" ? lastResult.result : undefined}
          />
        ) : null}
      </CardContent>
    </Card>
  );
}

function PendingSetup({
  pending,
  lastResult,
}: {
  pending: { secret: string; qrDataUrl: string };
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const confirming = useIsSubmitting({ intent: "2fa-confirm" });
  const [form, fields] = useSchemaForm({ id: "totp-confirm", schema: totpConfirmSchema, lastResult });
  return (
    <div className="grid gap-4">
      <ol className="list-decimal space-y-1 pl-5 text-sm">
        <li>Scan the QR code with your authenticator app, or type the key into it.</li>
        <li>Enter the 6-digit code the app shows.</li>
      </ol>
      <div className="flex flex-wrap items-start gap-6">
        <img
          src={pending.qrDataUrl}
          alt="QR code for your authenticator app"
          width={180}
          height={180}
          className="rounded-md border bg-white"
        />
        <div className="grid gap-1">
          <p className="text-sm font-medium">Key</p>
          <code data-testid="totp-secret" className="break-all rounded bg-muted px-2 py-1 font-mono text-sm">
            {grouped(pending.secret)}
          </code>
          <p className="text-xs text-muted-foreground">Time-based, 6 digits, every 30 seconds.</p>
        </div>
      </div>
      <Form method="post" id={form.id} noValidate={form.noValidate} onSubmit={form.onSubmit} className="grid max-w-xs gap-4">
        <input type="hidden" name="intent" value="2fa-confirm" />
        <FormErrors form={form} />
        <FormField field={fields.code} label={CODE_LABEL}>
          {(props) => <Input {...props} inputMode="numeric" autoComplete="one-time-code" />}
        </FormField>
        <div className="flex flex-wrap gap-2">
          <SubmitButton pending={confirming} pendingLabel="Checking…">
            Turn on
          </SubmitButton>
        </div>
      </Form>
      <Form method="post">
        <input type="hidden" name="intent" value="2fa-cancel" />
        <Button type="submit" variant="outline" size="sm">
          Cancel setup
        </Button>
      </Form>
    </div>
  );
}

function CredentialForm({
  intent,
  submitLabel,
  pendingLabel,
  destructive = false,
  lastResult,
}: {
  intent: string;
  submitLabel: string;
  pendingLabel: string;
  destructive?: boolean;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const pending = useIsSubmitting({ intent });
  const [form, fields] = useSchemaForm({ id: intent, schema: twoFactorDisableSchema, lastResult });
  return (
    <Form method="post" id={form.id} noValidate={form.noValidate} onSubmit={form.onSubmit} className="grid max-w-md gap-4">
      <input type="hidden" name="intent" value={intent} />
      <FormErrors form={form} />
      <FormField field={fields.credential} label={DISABLE_LABEL}>
        {(props) => <Input {...props} type="password" autoComplete="current-password" />}
      </FormField>
      <SubmitButton
        pending={pending}
        pendingLabel={pendingLabel}
        variant={destructive ? "destructive" : "outline"}
        className="justify-self-start"
      >
        {submitLabel}
      </SubmitButton>
    </Form>
  );
}

function RecoveryCodes({ codes }: { codes: string[] }) {
  const text = `${codes.join("\n")}\n`;
  return (
    <div className="grid gap-3 rounded-md border border-emerald-300 bg-emerald-50 p-4 text-emerald-950">
      <h3 className="font-semibold">Recovery codes</h3>
      <p className="text-sm">
        Keep these somewhere safe. Each one signs you in once if you lose your authenticator app. They are shown only now.
      </p>
      <ul data-testid="recovery-codes" className="grid grid-cols-2 gap-x-6 gap-y-1 font-mono text-sm sm:max-w-sm">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button asChild variant="outline" size="sm">
          <a href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`} download="recovery-codes.txt">
            <Download aria-hidden />
            Download
          </a>
        </Button>
        <CopyButton text={text} />
      </div>
    </div>
  );
}
