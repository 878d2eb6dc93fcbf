import { data, Form } from "react-router";
import { FormErrors, FormField, SubmitButton, useIsSubmitting, useSchemaForm } from "~/components/forms";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { passwordChangeSchema } from "~/features/account/account-schema";
import { changeOwnPassword, listOwnSessions, revokeOtherSessions, revokeOwnSession } from "~/features/account/account.server";
import { addPasskey, listOwnPasskeys, removePasskey } from "~/features/account/passkeys-account.server";
import { PasskeysCard } from "~/features/account/passkeys-card";
import { TwoFactorCard } from "~/features/account/two-factor-card";
import {
  cancelTotpSetup,
  confirmTotpSetup,
  disableTwoFactor,
  getOwnTwoFactor,
  regenerateRecoveryCodes,
  startTotpSetup,
} from "~/features/account/two-factor-account.server";
import { requireArea } from "~/features/auth/guards.server";
import { handleAdminForm } from "~/features/admin/admin-form.server";
import { staffMustUseTwoFactor } from "~/features/admin/two-factor-guard.server";
import { passkeyNameSchema } from "~/features/auth/passkey-schema";
import { totpConfirmSchema, twoFactorDisableSchema } from "~/features/auth/two-factor-schema";
import type { FormFailure, SubmissionResult } from "~/lib/forms";
import { PASSWORD_MIN_LENGTH } from "~/lib/password-policy";
import { getDb } from "~/server/db/client.server";
import { withPageFailures } from "~/server/failure-reply.server";
import { invalidSubmission } from "~/server/failure-reply.server";
import { redirectWithToast } from "~/server/toast.server";
import type { Route } from "./+types/account";

export function meta() {
  return [{ title: "Account — Admin" }, { name: "robots", content: "noindex" }];
}

export async function loader({ request }: Route.LoaderArgs) {
  const actor = await requireArea(request, "account");
  const db = getDb();
  const [sessions, twoFactor, passkeys, required] = await Promise.all([
    withPageFailures(() => listOwnSessions(db, actor)),
    withPageFailures(() => getOwnTwoFactor(db, actor)),
    withPageFailures(() => listOwnPasskeys(db, actor)),
    staffMustUseTwoFactor(db, actor),
  ]);
  return {
    email: actor.email,
    twoFactor: {
      enabled: twoFactor.enabled,
      secondFactor: twoFactor.secondFactor,
      pending: twoFactor.pending ? { secret: twoFactor.pending.secret, qrDataUrl: twoFactor.pending.qrDataUrl } : null,
      recoveryCodesLeft: twoFactor.recoveryCodesLeft,
      required,
    },
    passkeys: passkeys.map((p) => ({
      id: p.id,
      name: p.name,
      createdAt: p.createdAt.toISOString(),
      lastUsedAt: p.lastUsedAt?.toISOString() ?? null,
    })),
    sessions: sessions.map((s) => ({ ...s, lastSeenAt: s.lastSeenAt.toISOString(), createdAt: s.createdAt.toISOString() })),
  };
}

type AccountActionData = { ok: true; message: string; recoveryCodes?: string[] } | FormFailure;

const ok = (message: string, recoveryCodes?: string[]) =>
  data<AccountActionData>(recoveryCodes ? { ok: true, message, recoveryCodes } : { ok: true, message });

export async function action({ request }: Route.ActionArgs) {
  return handleAdminForm(request, "account", {
    password: async ({ actor, db, form, parse }) => {
      const parsed = parse(passwordChangeSchema);
      if (parsed.status !== "success") return invalidSubmission(parsed);
      await changeOwnPassword(db, actor, form);
      return redirectWithToast("/admin/account", {
        title: "Password changed",
        description: "Your other sessions have been signed out.",
        type: "success",
      });
    },
    revoke: async ({ actor, db, form }) => {
      const { current } = await revokeOwnSession(db, actor, form);
      if (current) return redirectWithToast("/auth", { title: "Signed out", type: "success" });
      return ok("Session signed out.");
    },
    "revoke-others": async ({ actor, db }) => {
      const n = await revokeOtherSessions(db, actor);
      return ok(n === 1 ? "1 other session signed out." : `${n} other sessions signed out.`);
    },
    "2fa-start": async ({ actor, db }) => {
      await startTotpSetup(db, actor);
      return ok("Scan the QR code, then enter the code your app shows.");
    },
    "2fa-cancel": async ({ actor, db }) => {
      await cancelTotpSetup(db, actor);
      return ok("Setup cancelled.");
    },
    "2fa-confirm": async ({ actor, db, form, parse }) => {
      const parsed = parse(totpConfirmSchema);
      if (parsed.status !== "success") return invalidSubmission(parsed);
      return ok("Two-factor authentication is on.", await confirmTotpSetup(db, actor, form));
    },
    "2fa-recovery-codes": async ({ actor, db, form, parse }) => {
      const parsed = parse(twoFactorDisableSchema);
      if (parsed.status !== "success") return invalidSubmission(parsed);
      return ok("New recovery codes created. The old ones no longer work.", await regenerateRecoveryCodes(db, actor, form));
    },
    "2fa-disable": async ({ actor, db, form, parse }) => {
      const parsed = parse(twoFactorDisableSchema);
      if (parsed.status !== "success") return invalidSubmission(parsed);
      await disableTwoFactor(db, actor, form);
      return ok("Two-factor authentication is off.");
    },
    "passkey-add": async ({ actor, db, form, parse }) => {
      const parsed = parse(passkeyNameSchema);
      if (parsed.status !== "success") return invalidSubmission(parsed);
      const { recoveryCodes } = await addPasskey(db, actor, form, request);
      return recoveryCodes
        ? ok(`Passkey "${parsed.value.name}" added. Keep the recovery codes below somewhere safe.`, recoveryCodes)
        : ok(`Passkey "${parsed.value.name}" added.`);
    },
    "passkey-remove": async ({ actor, db, form }) => {
      const name = await removePasskey(db, actor, form);
      return ok(`Passkey "${name}" removed.`);
    },
  });
}

/** Stable on server and client (no time-zone dependent formatting during hydration). */
function when(iso: string): string {
  return `${iso.slice(0, 16).replace("T", " ")} UTC`;
}

export default function AccountPage({ loaderData, actionData }: Route.ComponentProps) {
  const { email, sessions, twoFactor, passkeys } = loaderData;
  const failure = actionData && !actionData.ok ? actionData.result : undefined;
  const failedIntent = failure?.initialValue?.intent;
  const failedForm = typeof failedIntent === "string" && failure ? { intent: failedIntent, result: failure } : undefined;
  const others = sessions.filter((s) => !s.current).length;
  const revokingOthers = useIsSubmitting({ intent: "revoke-others" });
  return (
    <section className="flex max-w-4xl flex-col gap-6">
      <div>
        <h1 className="text-3xl font-bold">Account</h1>
        <p className="mt-2 text-muted-foreground">Signed in as {email}.</p>
      </div>
      <div role="status" aria-live="polite" className="min-h-6 text-sm">
        {actionData && "message" in actionData ? <span className="text-emerald-800">{actionData.message}</span> : null}
      </div>
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
          <PasswordForm lastResult={failedForm?.intent === "password" ? failedForm.result : undefined} />
        </CardContent>
      </Card>
      <TwoFactorCard
        view={twoFactor}
        recoveryCodes={actionData && actionData.ok && "recoveryCodes" in actionData ? actionData.recoveryCodes : undefined}
        lastResult={failedForm}
      />
      <PasskeysCard passkeys={passkeys} lastResult={failedForm} />
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
                    {s.ip ?? "Unknown IP"} · last seen <time dateTime={s.lastSeenAt}>{when(s.lastSeenAt)}</time>
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
    </section>
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
