import { EmailCard } from "~/features/account/email-card";
import { PasskeysCard } from "~/features/account/passkeys-card";
import { TwoFactorCard } from "~/features/account/two-factor-card";
import { requireArea } from "~/features/auth/guards.server";
import { handleAdminForm } from "~/features/admin/admin-form.server";
import { getDb } from "~/server/db/client.server";
import { PasswordCard, SessionsCard } from "~/features/account/account-cards";
import { accountIntents } from "~/features/account/account-actions.server";
import { accountPageView } from "~/features/account/account-page.server";
import type { Route } from "./+types/account";

export function meta() {
  return [{ title: "Account — Admin" }, { name: "robots", content: "noindex" }];
}

export async function loader({ request }: Route.LoaderArgs) {
  const actor = await requireArea(request, "account");
  return accountPageView(getDb(), actor);
}

export async function action({ request }: Route.ActionArgs) {
  return handleAdminForm(request, "account", accountIntents());
}

export default function AccountPage({ loaderData, actionData }: Route.ComponentProps) {
  const { email, emailChange, sessions, twoFactor, passkeys } = loaderData;
  const failure = actionData && !actionData.ok ? actionData.result : undefined;
  const failedIntent = failure?.initialValue?.intent;
  const failedForm = typeof failedIntent === "string" && failure ? { intent: failedIntent, result: failure } : undefined;
  return (
    <section className="flex max-w-4xl flex-col gap-6">
      <div>
        <h1 className="text-3xl font-bold">Account</h1>
        <p className="mt-2 text-muted-foreground">Signed in as {email}.</p>
      </div>
      <div role="status" aria-live="polite" className="min-h-6 text-sm">
        {actionData && "message" in actionData ? <span className="text-emerald-800">{actionData.message}</span> : null}
      </div>
      <EmailCard email={email} view={emailChange} lastResult={failedForm?.intent === "email" ? failedForm.result : undefined} />
      <PasswordCard lastResult={failedForm?.intent === "password" ? failedForm.result : undefined} />
      <TwoFactorCard
        view={twoFactor}
        recoveryCodes={actionData && actionData.ok && "recoveryCodes" in actionData ? actionData.recoveryCodes : undefined}
        lastResult={failedForm}
      />
      <PasskeysCard passkeys={passkeys} lastResult={failedForm} />
      <SessionsCard sessions={sessions} />
    </section>
  );
}
