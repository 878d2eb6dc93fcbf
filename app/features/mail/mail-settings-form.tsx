import { useEffect } from "react";
import { Form } from "react-router";
import { toast } from "~/components/toaster";
import { CheckboxField, FormErrors, FormField, SubmitButton, useIsSubmitting, useSchemaForm } from "~/components/forms";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import type { FormFailure } from "~/lib/forms";
import {
  MAIL_ENV_WINS,
  mailSettingsFormSchema,
  PASSWORD_KEEP_HINT,
  SMTP_SECURITY_OPTIONS,
  testEmailSchema,
  type MailSettingsView,
} from "./mail-settings-schema";

export type TestEmailAnswer = { ok: true; to: string; answer: string } | { ok: false; to: string; error: string };

const hint = (text: string) => <p className="text-sm text-muted-foreground">{text}</p>;

/** Settings → Email: the SMTP server and the sender (administrators). The password is write-only. */
export function MailSettingsForm({ settings, failure }: { settings: MailSettingsView; failure?: FormFailure }) {
  const saving = useIsSubmitting({ intent: "save" });
  const [form, fields] = useSchemaForm({
    id: "mail-settings",
    schema: mailSettingsFormSchema,
    lastResult: failure?.result,
    defaultValue: {
      host: settings.host,
      port: String(settings.port),
      security: settings.security,
      user: settings.user,
      password: "",
      senderName: settings.senderName,
      senderAddress: settings.senderAddress,
      replyTo: settings.replyTo,
      subscriptionsEnabled: settings.subscriptionsEnabled ? "on" : "",
    },
  });
  useEffect(() => {
    if (failure) toast.error("Error", { description: failure.error });
  }, [failure]);
  const clearId = `${form.id}-clearPassword`;
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2 className="text-xl">SMTP server</h2>
        </CardTitle>
        <CardDescription>
          The server every email of the site goes through: subscriptions, password resets, booking emails and contact forwarding. Changes
          apply at once on every instance.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {settings.envWins ? (
          <p role="note" className="mb-4 rounded-md border border-amber-500/40 bg-amber-500/10 p-3 text-sm" data-testid="smtp-env-wins">
            {MAIL_ENV_WINS}
          </p>
        ) : null}
        <Form method="post" id={form.id} noValidate={form.noValidate} onSubmit={form.onSubmit} className="grid gap-4">
          <input type="hidden" name="intent" value="save" />
          <FormErrors form={form} />
          <div className="grid gap-4 sm:grid-cols-[1fr_8rem]">
            <FormField field={fields.host} label="Host">
              {(props) => <Input {...props} autoComplete="off" placeholder="smtp.example.com" />}
            </FormField>
            <FormField field={fields.port} label="Port">
              {(props) => <Input {...props} inputMode="numeric" />}
            </FormField>
          </div>
          <FormField field={fields.security} label="Security" select>
            {(props) => (
              <select {...props} className="h-9 rounded-md border border-input bg-background px-3 text-sm">
                {SMTP_SECURITY_OPTIONS.map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.label}
                  </option>
                ))}
              </select>
            )}
          </FormField>
          <FormField field={fields.user} label="User">
            {(props) => <Input {...props} autoComplete="off" />}
          </FormField>
          <FormField
            field={fields.password}
            label="Password"
            hint={hint(settings.hasPassword ? `A password is saved. ${PASSWORD_KEEP_HINT}` : "No password is saved.")}
          >
            {(props) => <Input {...props} type="password" autoComplete="new-password" defaultValue="" />}
          </FormField>
          {settings.hasPassword ? (
            <div className="flex items-center gap-3">
              <input type="checkbox" id={clearId} name={fields.clearPassword.name} className="size-4 accent-primary" />
              <label htmlFor={clearId} className="text-sm">
                Remove the saved password
              </label>
            </div>
          ) : null}
          <FormField field={fields.senderName} label="Sender name" hint={hint("Empty: the site name.")}>
            {(props) => <Input {...props} />}
          </FormField>
          <FormField field={fields.senderAddress} label="Sender address">
            {(props) => <Input {...props} type="email" autoComplete="off" placeholder="news@example.com" />}
          </FormField>
          <FormField field={fields.replyTo} label="Reply-to" hint={hint("Optional: where answers to the site's emails go.")}>
            {(props) => <Input {...props} type="email" autoComplete="off" />}
          </FormField>
          <CheckboxField
            field={fields.subscriptionsEnabled}
            id={`${form.id}-subscriptionsEnabled`}
            label="Offer email subscriptions to new posts"
            defaultChecked={settings.subscriptionsEnabled}
          />
          <SubmitButton pending={saving} pendingLabel="Saving…" className="justify-self-start">
            Save email settings
          </SubmitButton>
        </Form>
      </CardContent>
    </Card>
  );
}

/** "Send a test email": the server's answer, or the failure in words, right below the button. */
export function TestEmailForm({ answer, defaultTo }: { answer?: TestEmailAnswer; defaultTo: string }) {
  const sending = useIsSubmitting({ intent: "test" });
  const [form, fields] = useSchemaForm({ id: "test-email", schema: testEmailSchema, defaultValue: { to: defaultTo } });
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2 className="text-xl">Send a test email</h2>
        </CardTitle>
        <CardDescription>Sends one email now with the saved settings and shows what the server answered.</CardDescription>
      </CardHeader>
      <CardContent>
        <Form method="post" id={form.id} noValidate={form.noValidate} onSubmit={form.onSubmit} className="grid gap-4">
          <input type="hidden" name="intent" value="test" />
          <FormField field={fields.to} label="Send to">
            {(props) => <Input {...props} type="email" autoComplete="email" />}
          </FormField>
          <SubmitButton pending={sending} pendingLabel="Sending…" className="justify-self-start">
            Send a test email
          </SubmitButton>
        </Form>
        <div role="status" className="mt-4 text-sm" data-testid="test-email-answer">
          {answer?.ok ? (
            <p className="rounded-md border border-emerald-600/40 bg-emerald-600/10 p-3">
              Sent to {answer.to}. The server answered: {answer.answer || "OK"}
            </p>
          ) : answer ? (
            <p className="rounded-md border border-destructive/40 bg-destructive/10 p-3 text-destructive">
              Not sent to {answer.to}. {answer.error}
            </p>
          ) : null}
        </div>
      </CardContent>
    </Card>
  );
}
