import { Form } from "react-router";
import { FormErrors, FormField, SubmitButton, useIsSubmitting, useSchemaForm } from "~/components/forms";
import { Timestamp } from "~/components/timestamp";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import type { SubmissionResult } from "~/lib/forms";
import { PASSWORD_MIN_LENGTH } from "~/lib/password-policy";
import { passwordChangeSchema } from "./account-schema";

/** A browser signed in to the account, as the sessions card lists it. */
export interface SessionView {
  id: string;
  browser: string;
  ip: string | null;
  current: boolean;
  lastSeenAt: string;
}

/** 'Change password': the current password, the new one twice; the other sessions are signed out. */
export function PasswordCard({ lastResult }: { lastResult: SubmissionResult<string[]> | undefined }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2 className="text-xl">Change password</h2>
        </CardTitle>
        <CardDescription>
          Your current password is required. At least {PASSWORD_MIN_LENGTH} characters. Your other sessions are signed out.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <PasswordForm lastResult={lastResult} />
      </CardContent>
    </Card>
  );
}

/** 'Active sessions': each browser signed in, with Sign out, and 'Sign out everywhere else'. */
export function SessionsCard({ sessions }: { sessions: SessionView[] }) {
  const others = sessions.filter((s) => !s.current).length;
  const revokingOthers = useIsSubmitting({ intent: "revoke-others" });
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2 className="text-xl">Active sessions</h2>
        </CardTitle>
        <CardDescription>Browsers signed in to your account. Sign out any you do not recognise.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <ul className="divide-y rounded-md border">
          {sessions.map((s) => (
            <li key={s.id} className="flex flex-wrap items-center gap-x-4 gap-y-2 p-3" data-testid="session-row">
              <div className="min-w-0 flex-1">
                <p className="font-medium">
                  {s.browser}
                  {s.current ? (
                    <span className="ml-2 rounded bg-emerald-100 px-2 py-0.5 text-xs text-emerald-900">This browser</span>
                  ) : null}
                </p>
                <p className="text-sm text-muted-foreground">
                  {s.ip ?? "Unknown IP"} · last seen <Timestamp iso={s.lastSeenAt} format="utc" />
                </p>
              </div>
              <Form method="post">
                <input type="hidden" name="intent" value="revoke" />
                <input type="hidden" name="sessionId" value={s.id} />
                <Button type="submit" variant="outline" size="sm" aria-label={`Sign out ${s.browser} (${s.ip ?? "unknown IP"})`}>
                  Sign out
                </Button>
              </Form>
            </li>
          ))}
        </ul>
        {others > 0 ? (
          <Form method="post">
            <input type="hidden" name="intent" value="revoke-others" />
            <SubmitButton pending={revokingOthers} pendingLabel="Signing out…" variant="destructive">
              Sign out everywhere else
            </SubmitButton>
          </Form>
        ) : null}
      </CardContent>
    </Card>
  );
}

function PasswordForm({ lastResult }: { lastResult: SubmissionResult<string[]> | undefined }) {
  const saving = useIsSubmitting({ intent: "password" });
  const [form, fields] = useSchemaForm({ id: "password-change", schema: passwordChangeSchema, lastResult });
  return (
    <Form method="post" id={form.id} noValidate={form.noValidate} onSubmit={form.onSubmit} className="grid max-w-md gap-4">
      <input type="hidden" name="intent" value="password" />
      <FormErrors form={form} />
      <FormField field={fields.currentPassword} label="Current password">
        {(props) => <Input {...props} type="password" autoComplete="current-password" />}
      </FormField>
      <FormField field={fields.newPassword} label="New password">
        {(props) => <Input {...props} type="password" autoComplete="new-password" />}
      </FormField>
      <FormField field={fields.confirmPassword} label="Confirm new password">
        {(props) => <Input {...props} type="password" autoComplete="new-password" />}
      </FormField>
      <SubmitButton pending={saving} pendingLabel="Saving…" className="justify-self-start">
        Change password
      </SubmitButton>
    </Form>
  );
}
