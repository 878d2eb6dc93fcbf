import { data, Form, Link, useActionData } from "react-router";
import { SubmitButton, useIsSubmitting } from "~/components/forms";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { handleAdminForm } from "~/features/admin/admin-form.server";
import { requireArea } from "~/features/auth/guards.server";
import { MailSettingsForm, TestEmailForm, type TestEmailAnswer } from "~/features/mail/mail-settings-form";
import { MAIL_SETTINGS_SAVED, mailSettingsFormSchema, testEmailSchema } from "~/features/mail/mail-settings-schema";
import { readMailSettingsView, saveMailSettings, sendTestEmail } from "~/features/mail/mail-settings.server";
import { resendPendingConfirmations } from "~/features/subscriptions/subscriptions.server";
import type { FormFailure } from "~/lib/forms";
import { getDb } from "~/server/db/client.server";
import { withPageFailures } from "~/server/failure-reply.server";
import { redirectWithToast } from "~/server/toast.server";
import type { Route } from "./+types/email";

export function meta() {
  return [{ title: "Email — Admin" }, { name: "robots", content: "noindex" }];
}

export async function loader({ request }: Route.LoaderArgs) {
  const actor = await requireArea(request, "mail");
  const settings = await withPageFailures(() => readMailSettingsView(getDb(), actor));
  return { settings, email: actor.email };
}

export async function action({ request }: Route.ActionArgs) {
  return handleAdminForm(request, "mail", {
    save: async ({ actor, db, form, parse }) => {
      parse(mailSettingsFormSchema);
      await saveMailSettings(db, actor, form);
      return redirectWithToast("/admin/email", { title: MAIL_SETTINGS_SAVED, type: "success" });
    },
    test: async ({ actor, db, form, parse }) => {
      parse(testEmailSchema);
      const test: TestEmailAnswer = await sendTestEmail(db, actor, form);
      return data({ test });
    },
    resend: async ({ actor, db }) => {
      const queued = await resendPendingConfirmations(db, actor);
      return redirectWithToast("/admin/email", {
        title: "Confirmations queued",
        description:
          queued === 1
            ? "1 pending subscriber will get a new confirmation email."
            : `${queued} pending subscribers will get a new confirmation email.`,
        type: "success",
      });
    },
  });
}

function ResendCard() {
  const sending = useIsSubmitting({ intent: "resend" });
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2 className="text-xl">Pending subscribers</h2>
        </CardTitle>
        <CardDescription>
          Addresses that subscribed while email was not working never got their confirmation link. Send it again (each address at most once
          a day).
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Form method="post">
          <input type="hidden" name="intent" value="resend" />
          <SubmitButton pending={sending} pendingLabel="Queueing…" variant="outline">
            Re-send confirmation emails
          </SubmitButton>
        </Form>
      </CardContent>
    </Card>
  );
}

export default function EmailSettings({ loaderData }: Route.ComponentProps) {
  const actionData = useActionData<typeof action>() as { test?: TestEmailAnswer } | FormFailure | undefined;
  const test = actionData && "test" in actionData ? actionData.test : undefined;
  const failure =
    actionData && "ok" in actionData && actionData.ok === false && "error" in actionData ? (actionData as FormFailure) : undefined;
  return (
    <div className="flex max-w-3xl flex-col gap-6">
      <div>
        <h1 className="text-3xl font-bold">Email</h1>
        <p className="mt-2 text-muted-foreground">
          {loaderData.settings.configured ? "Email is set up." : "Email isn't set up yet."} Every email the site sends is listed in the{" "}
          <Link to="/admin/mail-log" className="text-primary underline underline-offset-4">
            mail log
          </Link>
          .
        </p>
      </div>
      <MailSettingsForm settings={loaderData.settings} failure={failure} />
      <TestEmailForm answer={test} defaultTo={loaderData.email} />
      <ResendCard />
    </div>
  );
}
