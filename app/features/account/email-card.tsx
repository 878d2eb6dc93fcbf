import { Form } from "react-router";
import { FormErrors, FormField, SubmitButton, useIsSubmitting, useSchemaForm } from "~/components/forms";
import { Timestamp } from "~/components/timestamp";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import type { SubmissionResult } from "~/lib/forms";
import { EMAIL_CHANGE_CODE_LABEL, emailChangeSchema } from "./account-schema";

/** What the account page's loader says about changing the sign-in email. */
export interface EmailChangeView {
  /** Mail works: the change waits for the confirmation link. */
  mailWorks: boolean;
  /** The change applies at once and the user has a second factor: its code is asked for too. */
  needsCode: boolean;
  pending: { email: string; expiresAt: string } | null;
}

/**
 * 'Email': the sign-in email and the form to change it. With mail working a confirmation link goes to the
 * new address; without, the change applies at once (after the password and, if on, a second-factor code).
 */
export function EmailCard({
  email,
  view,
  lastResult,
}: {
  email: string;
  view: EmailChangeView;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const saving = useIsSubmitting({ intent: "email" });
  const [form, fields] = useSchemaForm({ id: "email-change", schema: emailChangeSchema, lastResult });
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2 className="text-xl">Email</h2>
        </CardTitle>
        <CardDescription>
          You sign in as <strong className="text-foreground">{email}</strong>. Password resets and notices go to this address.{" "}
          {view.mailWorks
            ? "To change it, we send a confirmation link to the new address; the change applies when you open it, and the old address gets a notice."
            : "Email isn't set up, so no confirmation link can be sent: the change applies as soon as you confirm it here."}
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {view.pending ? (
          <p className="text-sm" data-testid="pending-email-change">
            Waiting for confirmation: a link was sent to <strong>{view.pending.email}</strong> (valid until{" "}
            <Timestamp iso={view.pending.expiresAt} format="utc" />
            ).
          </p>
        ) : null}
        <Form method="post" id={form.id} noValidate={form.noValidate} onSubmit={form.onSubmit} className="grid max-w-md gap-4">
          <input type="hidden" name="intent" value="email" />
          <FormErrors form={form} />
          <FormField field={fields.newEmail} label="New email">
            {(props) => <Input {...props} type="email" autoComplete="email" />}
          </FormField>
          <FormField field={fields.currentPassword} label="Current password">
            {(props) => <Input {...props} type="password" autoComplete="current-password" />}
          </FormField>
          {view.needsCode ? (
            <FormField field={fields.code} label={EMAIL_CHANGE_CODE_LABEL}>
              {(props) => <Input {...props} autoComplete="one-time-code" inputMode="text" />}
            </FormField>
          ) : null}
          <SubmitButton pending={saving} pendingLabel="Saving…" className="justify-self-start">
            {view.mailWorks ? "Send confirmation link" : "Change email"}
          </SubmitButton>
        </Form>
      </CardContent>
    </Card>
  );
}
