import { Form } from "react-router";
import { CheckboxField, FormField, SubmitButton, useIsSubmitting, useSchemaForm } from "~/components/forms";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import type { SubmissionResult } from "~/lib/forms";
import { NEWSLETTER_TEXT, newsletterSettingsFormSchema, type NewsletterSettings } from "./newsletter-settings";

/** /admin/subscribers, Newsletter settings (admins only). */
export function NewsletterSettingsForm({
  settings,
  lastResult,
}: {
  settings: NewsletterSettings;
  lastResult?: SubmissionResult<string[]>;
}) {
  const saving = useIsSubmitting({ intent: "newsletter-settings" });
  const [form, fields] = useSchemaForm({
    id: "newsletter-settings",
    schema: newsletterSettingsFormSchema,
    lastResult,
    defaultValue: {
      emailByDefault: settings.emailByDefault ? "on" : "",
      content: settings.content,
      ratePerSecond: String(settings.ratePerSecond),
      accentColor: settings.accentColor,
    },
  });
  return (
    <Card className="mt-8">
      <CardHeader>
        <CardTitle>
          <h2 className="text-xl">Newsletter settings</h2>
        </CardTitle>
        <CardDescription>How new posts are emailed to subscribers.</CardDescription>
      </CardHeader>
      <CardContent>
        <Form method="post" id={form.id} noValidate={form.noValidate} onSubmit={form.onSubmit} className="grid max-w-xl gap-4">
          <input type="hidden" name="intent" value="newsletter-settings" />
          <CheckboxField
            field={fields.emailByDefault}
            id={`${form.id}-emailByDefault`}
            label={<>Start with “{NEWSLETTER_TEXT.publishAndEmail}” when a post goes live</>}
            defaultChecked={settings.emailByDefault}
          />
          <fieldset className="grid gap-2">
            <legend className="mb-1 text-sm font-medium">The email holds</legend>
            {(
              [
                ["excerpt", "The post's excerpt and a link"],
                ["full", "The whole post"],
              ] as const
            ).map(([value, label]) => (
              <div key={value} className="flex items-center gap-2">
                <input
                  type="radio"
                  id={`${form.id}-content-${value}`}
                  name={fields.content.name}
                  value={value}
                  defaultChecked={settings.content === value}
                  className="size-4 accent-primary"
                />
                <label htmlFor={`${form.id}-content-${value}`} className="text-sm">
                  {label}
                </label>
              </div>
            ))}
          </fieldset>
          <FormField field={fields.ratePerSecond} label="Emails per second">
            {(props) => <Input {...props} type="number" min={0.1} max={100} step={0.1} className="w-32" />}
          </FormField>
          <FormField field={fields.accentColor} label="Accent colour (buttons and links)">
            {/* A colour input always holds a colour, and HTML forbids `required` on it. */}
            {(props) => <Input {...props} required={undefined} type="color" className="h-10 w-20 p-1" />}
          </FormField>
          <SubmitButton pending={saving} pendingLabel="Saving…" className="justify-self-start">
            Save newsletter settings
          </SubmitButton>
        </Form>
      </CardContent>
    </Card>
  );
}
