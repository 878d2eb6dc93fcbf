import { Form } from "react-router";
import { CheckboxField, SubmitButton, useIsSubmitting, useSchemaForm } from "~/components/forms";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import type { SubmissionResult } from "~/lib/forms";
import { REQUIRE_TWO_FACTOR_LABEL, securitySettingsFormSchema, type SecuritySettings } from "./settings-schema";

/** /admin/settings, Security: site-wide sign-in rules (admins only). */
export function SecuritySettingsForm({ settings, lastResult }: { settings: SecuritySettings; lastResult?: SubmissionResult<string[]> }) {
  const saving = useIsSubmitting({ intent: "security" });
  const [form, fields] = useSchemaForm({
    id: "security-settings",
    schema: securitySettingsFormSchema,
    lastResult,
    defaultValue: { requireTwoFactor: settings.requireTwoFactor ? "on" : "" },
  });
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2 className="text-xl">Security</h2>
        </CardTitle>
        <CardDescription>
          Staff without two-factor authentication are sent to their Account page to set it up before they can use any other admin page.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Form method="post" id={form.id} noValidate={form.noValidate} onSubmit={form.onSubmit} className="grid gap-4">
          <input type="hidden" name="intent" value="security" />
          <CheckboxField
            field={fields.requireTwoFactor}
            id={`${form.id}-requireTwoFactor`}
            label={REQUIRE_TWO_FACTOR_LABEL}
            defaultChecked={settings.requireTwoFactor}
          />
          <SubmitButton pending={saving} pendingLabel="Saving…" className="justify-self-start">
            Save security settings
          </SubmitButton>
        </Form>
      </CardContent>
    </Card>
  );
}
