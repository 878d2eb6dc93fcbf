import { Form, useActionData } from "react-router";
import { useFailureToast } from "~/components/admin-list";
import { FormErrors, FormField, SubmitButton, useIsSubmitting, useSchemaForm } from "~/components/forms";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Textarea } from "~/components/ui/textarea";
import type { FormFailure } from "~/lib/forms";
import { SITE_COPY_DEFAULTS, SITE_COPY_FIELDS, SITE_COPY_INTENT, SITE_COPY_RESET, siteCopyFormSchema, type SiteCopy } from "./site-copy";

/** Whether a failed reply belongs to the page texts' form (the About lists' form shares the page). */
export function isSiteCopyFailure(failure: FormFailure | undefined): boolean {
  return failure?.result?.initialValue?.intent === SITE_COPY_INTENT;
}

/** The public pages' sentences, each with its default shown and a "Reset to default" button. */
export function SiteCopyForm({ copy }: { copy: SiteCopy }) {
  const actionData = useActionData<FormFailure>();
  const failure = actionData && !actionData.ok && isSiteCopyFailure(actionData) ? actionData : undefined;
  useFailureToast(failure);
  const saving = useIsSubmitting();
  const [form, fields] = useSchemaForm({ id: "site-copy", schema: siteCopyFormSchema, lastResult: failure?.result, defaultValue: copy });
  return (
    <Form method="post" id={form.id} noValidate={form.noValidate} onSubmit={form.onSubmit} className="flex flex-col gap-6">
      <input type="hidden" name="intent" value={SITE_COPY_INTENT} />
      <div>
        <h2 className="text-2xl font-bold">Page texts</h2>
        <p className="mt-2 text-muted-foreground">
          The sentences of the public pages, the 7 Fs category descriptions, the not-found page and the footer. Each starts as the original
          text; &quot;Reset to default&quot; brings it back.
        </p>
      </div>
      <FormErrors form={form} />
      {SITE_COPY_FIELDS.map((group) => (
        <Card key={group.page}>
          <CardHeader>
            <CardTitle>
              <h3 className="text-xl">{group.page}</h3>
            </CardTitle>
          </CardHeader>
          <CardContent className="grid gap-6">
            {group.fields.map(([key, field]) => {
              const isDefault = copy[key] === SITE_COPY_DEFAULTS[key];
              return (
                <div key={key} className="grid gap-2">
                  <FormField
                    field={fields[key]}
                    label={field.label}
                    hint={
                      <p className="text-sm text-muted-foreground">
                        {isDefault ? `The default, at most ${field.max} characters.` : `Default: "${SITE_COPY_DEFAULTS[key]}"`}
                        {field.placeholders
                          ? ` ${Object.entries(field.placeholders)
                              .map(([name, meaning]) => `{${name}} stands for ${meaning}`)
                              .join("; ")}.`
                          : null}
                      </p>
                    }
                  >
                    {(props) => (field.paragraph ? <Textarea {...props} rows={3} /> : <Input {...props} />)}
                  </FormField>
                  {isDefault ? null : (
                    <Button
                      type="submit"
                      name={SITE_COPY_RESET}
                      value={key}
                      formNoValidate
                      variant="outline"
                      size="sm"
                      className="w-fit"
                      aria-label={`Reset to default: ${group.page}, ${field.label}`}
                    >
                      Reset to default
                    </Button>
                  )}
                </div>
              );
            })}
          </CardContent>
        </Card>
      ))}
      <SubmitButton pending={saving} pendingLabel="Saving..." className="w-fit">
        Save page texts
      </SubmitButton>
    </Form>
  );
}
