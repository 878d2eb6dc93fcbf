import { Form } from "react-router";
import { CheckboxField, FormField, SubmitButton, useFormFailure, useIsSubmitting, useSchemaForm } from "~/components/forms";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Textarea } from "~/components/ui/textarea";
import { analyticsSettingsFormSchema, STATISTICS_SETTINGS_LABELS, type AnalyticsSettings } from "./analytics-settings";

/** /admin/settings, Statistics: what is counted and who may read it (admins only). */
export function StatisticsSettingsForm({ settings }: { settings: AnalyticsSettings }) {
  const failure = useFormFailure("statistics");
  const saving = useIsSubmitting({ intent: "statistics" });
  const [form, fields] = useSchemaForm({
    id: "statistics-settings",
    schema: analyticsSettingsFormSchema,
    lastResult: failure?.result,
    defaultValue: {
      honourDoNotTrack: settings.honourDoNotTrack ? "on" : "",
      blockedReferrers: settings.blockedReferrers.join("\n"),
    },
  });
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2 className="text-xl">Statistics</h2>
        </CardTitle>
        <CardDescription>
          Visits are counted without cookies. Raw views are kept for ANALYTICS_RAW_DAYS days, daily totals forever; ANALYTICS=false turns
          counting off. A moderator sees them when you give them Statistics in Users.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Form method="post" id={form.id} noValidate={form.noValidate} onSubmit={form.onSubmit} className="grid gap-4">
          <input type="hidden" name="intent" value="statistics" />
          <CheckboxField
            field={fields.honourDoNotTrack}
            id={`${form.id}-honourDoNotTrack`}
            label={STATISTICS_SETTINGS_LABELS.honourDoNotTrack}
            defaultChecked={settings.honourDoNotTrack}
          />
          <FormField
            field={fields.blockedReferrers}
            label={STATISTICS_SETTINGS_LABELS.blockedReferrers}
            hint={<p className="text-sm text-muted-foreground">One host a line; its subdomains are blocked too.</p>}
          >
            {(props) => <Textarea {...props} rows={4} />}
          </FormField>
          <SubmitButton pending={saving} pendingLabel="Saving…" className="justify-self-start">
            Save statistics settings
          </SubmitButton>
        </Form>
      </CardContent>
    </Card>
  );
}
