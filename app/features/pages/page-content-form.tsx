import { Form, Link, useActionData } from "react-router";
import { useFailureToast } from "~/components/admin-list";
import { FormErrors, FormField, SubmitButton, useIsSubmitting, useSchemaForm } from "~/components/forms";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Textarea } from "~/components/ui/textarea";
import type { FormFailure } from "~/lib/forms";
import { isSiteCopyFailure } from "./site-copy-form";
import { pageContentFormSchema, pageContentFormValues, PAGE_CONTENT_LIMITS, type PageContent } from "./page-content-schema";

export type PageContentActionData = FormFailure;

function Hint({ children }: { children: React.ReactNode }) {
  return <p className="text-sm text-muted-foreground">{children}</p>;
}

const ORDER_HINT = "One a line, in the order the page shows them: move a line up or down to reorder.";

/**
 * /admin/about: the About page's lists and the home page's certifications and expertise cards.
 * The resume link has one home, the settings; it is shown here with a way there.
 */
export function PageContentForm({
  content,
  resumeUrl,
  canOpenSettings,
}: {
  content: PageContent;
  resumeUrl: string;
  canOpenSettings: boolean;
}) {
  const actionData = useActionData<PageContentActionData>();
  const failure = actionData && !actionData.ok && !isSiteCopyFailure(actionData) ? actionData : undefined;
  useFailureToast(failure);
  const saving = useIsSubmitting();
  const [form, fields] = useSchemaForm({
    id: "page-content",
    schema: pageContentFormSchema,
    lastResult: failure?.result,
    defaultValue: pageContentFormValues(content),
  });
  const textarea = (rows: number) => (props: React.ComponentProps<typeof Textarea>) => <Textarea {...props} rows={rows} />;
  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="text-3xl font-bold">About</h1>
        <p className="mt-2 text-muted-foreground">
          The About page&apos;s introduction, education, certifications, skills and tools, and the home page&apos;s certifications and
          expertise cards. An empty list hides its section on the site.
        </p>
      </div>
      <Form method="post" id={form.id} noValidate={form.noValidate} onSubmit={form.onSubmit} className="flex flex-col gap-6">
        <FormErrors form={form} />
        <Card>
          <CardHeader>
            <CardTitle>
              <h2 className="text-xl">About page</h2>
            </CardTitle>
          </CardHeader>
          <CardContent className="grid gap-4">
            <FormField
              field={fields.intro}
              label="Introduction"
              hint={
                <Hint>{`The paragraph under the page's heading, at most ${PAGE_CONTENT_LIMITS.intro} characters; a line break starts a new line. Left empty, the short bio from Settings is shown.`}</Hint>
              }
            >
              {textarea(4)}
            </FormField>
            <FormField
              field={fields.education}
              label="Education"
              hint={<Hint>{`"Degree | School | Year" (the year is optional). ${ORDER_HINT}`}</Hint>}
            >
              {textarea(4)}
            </FormField>
            <FormField
              field={fields.certifications}
              label="Certifications"
              hint={<Hint>{`Also shown on the home page, at most ${PAGE_CONTENT_LIMITS.certifications}. ${ORDER_HINT}`}</Hint>}
            >
              {textarea(6)}
            </FormField>
            <FormField field={fields.skills} label="Skills" hint={<Hint>{ORDER_HINT}</Hint>}>
              {textarea(8)}
            </FormField>
            <FormField field={fields.tools} label="Tools" hint={<Hint>{ORDER_HINT}</Hint>}>
              {textarea(8)}
            </FormField>
            <div className="grid gap-1 text-sm">
              <p className="font-medium">Resume link</p>
              <p className="break-all text-muted-foreground">{resumeUrl || "Not set: the About page shows no download button."}</p>
              {canOpenSettings ? (
                <Link to="/admin/settings" className="w-fit text-primary underline underline-offset-4">
                  Change the resume link in Settings
                </Link>
              ) : (
                <Hint>An administrator changes it in Settings.</Hint>
              )}
            </div>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>
              <h2 className="text-xl">Home page</h2>
            </CardTitle>
          </CardHeader>
          <CardContent className="grid gap-4">
            <FormField
              field={fields.heroGreeting}
              label="Hero greeting"
              hint={
                <Hint>{`A line above the hero's headline that says whose site it is, e.g. "Hi, I'm Maya Rivera"; at most ${PAGE_CONTENT_LIMITS.heroGreeting} characters. Left empty, no line is shown.`}</Hint>
              }
            >
              {(props) => <Input {...props} />}
            </FormField>
            <Hint>The hero&apos;s certifications are the list above.</Hint>
            <FormField
              field={fields.expertise}
              label="Expertise cards"
              hint={<Hint>{`"Title | Description", one card a line (at most ${PAGE_CONTENT_LIMITS.expertise}). ${ORDER_HINT}`}</Hint>}
            >
              {textarea(6)}
            </FormField>
          </CardContent>
        </Card>
        <SubmitButton pending={saving} pendingLabel="Saving..." className="w-fit">
          Save page content
        </SubmitButton>
      </Form>
    </div>
  );
}
