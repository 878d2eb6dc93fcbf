import { useEffect, useId, useState } from "react";
import { Form, useActionData } from "react-router";
import { toast } from "~/components/toaster";
import { FormErrors, FormField, SubmitButton, useIsSubmitting, useSchemaForm } from "~/components/forms";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Textarea } from "~/components/ui/textarea";
import type { FormFailure } from "~/lib/forms";
import { settingsFormValues, siteSettingsFormSchema, SETTINGS_LIMITS, type SiteSettings } from "./settings-schema";

export type SettingsActionData = FormFailure;

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2 className="text-xl">{title}</h2>
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">{children}</CardContent>
    </Card>
  );
}

/** Reads the upload answer of /api/uploads: the first image's URL, or the server's message. */
async function uploadImage(file: File): Promise<{ url: string } | { error: string }> {
  const body = new FormData();
  body.append("files", file);
  const response = await fetch("/api/uploads", { method: "POST", body });
  const json: unknown = await response.json().catch(() => null);
  if (response.ok && json && typeof json === "object" && "images" in json && Array.isArray(json.images)) {
    const first: unknown = json.images[0];
    if (first && typeof first === "object" && "url" in first && typeof first.url === "string") return { url: first.url };
  }
  const error =
    json && typeof json === "object" && "error" in json && typeof json.error === "string" ? json.error : "The image could not be uploaded.";
  return { error };
}

/**
 * An image address with an upload button beside it: the upload goes through the one upload pipeline
 * (/api/uploads: checked, resized into responsive variants) and its address fills the field. Without
 * JavaScript the address can be typed.
 */
function ImageUrlInput({ label, ...props }: React.ComponentProps<typeof Input> & { label: string }) {
  const [value, setValue] = useState(typeof props.defaultValue === "string" ? props.defaultValue : "");
  const [busy, setBusy] = useState(false);
  const fileId = useId();
  const { defaultValue: _ignored, ...inputProps } = props;
  return (
    <div className="grid gap-2">
      <Input {...inputProps} value={value} onChange={(event) => setValue(event.target.value)} placeholder="/uploads/… or https://…" />
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <Label htmlFor={fileId} className="cursor-pointer rounded-md border px-3 py-1.5 font-normal hover:bg-accent">
          {busy ? "Uploading..." : `Upload ${label.toLowerCase()}`}
        </Label>
        <input
          id={fileId}
          type="file"
          accept="image/*"
          className="sr-only"
          disabled={busy}
          onChange={async (event) => {
            const file = event.target.files?.[0];
            event.target.value = "";
            if (!file) return;
            setBusy(true);
            const result = await uploadImage(file).finally(() => setBusy(false));
            if ("url" in result) {
              setValue(result.url);
              toast.success("Image uploaded", { description: "Save settings to use it." });
            } else toast.error("Upload failed", { description: result.error });
          }}
        />
        {value ? <img src={value} alt="" className="h-12 w-10 rounded object-cover" /> : null}
      </div>
    </div>
  );
}

const LINKS_HINT = 'One link a line, in order: "Label | https://…".';

/** /admin/settings: the site's identity, addresses and feeds (admins only). */
export function SettingsForm({ settings }: { settings: SiteSettings }) {
  const actionData = useActionData<SettingsActionData>();
  const failure = actionData && !actionData.ok ? actionData : undefined;
  const saving = useIsSubmitting();
  const [form, fields] = useSchemaForm({
    id: "settings",
    schema: siteSettingsFormSchema,
    lastResult: failure?.result,
    defaultValue: settingsFormValues(settings),
  });

  useEffect(() => {
    if (failure) toast.error("Error", { description: failure.error });
  }, [failure]);

  const hint = (text: string) => <p className="text-sm text-muted-foreground">{text}</p>;

  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="text-3xl font-bold">Settings</h1>
        <p className="mt-2 text-muted-foreground">
          The site&apos;s name, the owner&apos;s profile, addresses and feeds, as every public page shows them.
        </p>
      </div>
      <Form method="post" id={form.id} noValidate={form.noValidate} onSubmit={form.onSubmit} className="flex flex-col gap-6">
        <FormErrors form={form} />
        <Section title="Identity">
          <FormField
            field={fields.siteName}
            label="Site name"
            hint={hint("Shown in the top bar, the footer, page titles, feeds and emails.")}
          >
            {(props) => <Input {...props} />}
          </FormField>
          <FormField
            field={fields.siteUrl}
            label="Site address"
            hint={hint(
              "The public address, e.g. https://example.com: links in feeds, emails and shared pages start with it. PUBLIC_URL, when set, wins.",
            )}
          >
            {(props) => <Input {...props} type="url" placeholder="https://…" />}
          </FormField>
          <FormField field={fields.ownerName} label="Owner's name">
            {(props) => <Input {...props} autoComplete="name" />}
          </FormField>
          <FormField field={fields.headline} label="Headline">
            {(props) => <Input {...props} />}
          </FormField>
          <FormField field={fields.tagline} label="Tagline">
            {(props) => <Textarea {...props} rows={2} />}
          </FormField>
          <FormField
            field={fields.bio}
            label="Short bio"
            hint={hint(`The home page's About summary (at most ${SETTINGS_LIMITS.bio} characters).`)}
          >
            {(props) => <Textarea {...props} rows={5} />}
          </FormField>
          <FormField
            field={fields.portraitUrl}
            label="Portrait"
            controlled
            hint={hint("Used on the home page, Recent Roles and in search results. Empty: a placeholder silhouette.")}
          >
            {(props) => <ImageUrlInput {...props} defaultValue={fields.portraitUrl.initialValue ?? ""} label="Portrait" />}
          </FormField>
          <FormField
            field={fields.socialImageUrl}
            label="Default social image"
            controlled
            hint={hint("The preview image of pages without one of their own (1200×630 works best).")}
          >
            {(props) => <ImageUrlInput {...props} defaultValue={fields.socialImageUrl.initialValue ?? ""} label="Social image" />}
          </FormField>
        </Section>
        <Section title="Contact and links">
          <FormField
            field={fields.contactEmail}
            label="Contact email"
            hint={hint("Shown on the Contact page. Empty: no address is shown.")}
          >
            {(props) => <Input {...props} type="email" autoComplete="email" />}
          </FormField>
          <FormField field={fields.resumeUrl} label="Resume link" hint={hint("A site path such as /resume.pdf or a web address.")}>
            {(props) => <Input {...props} />}
          </FormField>
          <FormField field={fields.socialLinks} label="Social links" hint={hint(LINKS_HINT)}>
            {(props) => <Textarea {...props} rows={4} className="font-mono text-sm" />}
          </FormField>
          <FormField field={fields.serviceLinks} label="Services links" hint={hint(LINKS_HINT)}>
            {(props) => <Textarea {...props} rows={3} className="font-mono text-sm" />}
          </FormField>
          <FormField field={fields.newsletterUrl} label="Newsletter URL">
            {(props) => <Input {...props} type="url" placeholder="https://…" />}
          </FormField>
          <FormField
            field={fields.schedulingUrl}
            label="Scheduling widget URL"
            hint={hint("Embedded in the home page's Reach Me section. Empty: a 'Book a call' link to the Contact page.")}
          >
            {(props) => <Input {...props} type="url" placeholder="https://…" />}
          </FormField>
        </Section>
        <Section title="Featured Work feeds">
          <FormField field={fields.substackUrl} label="Newsletter feed address">
            {(props) => <Input {...props} type="url" placeholder="https://….substack.com" />}
          </FormField>
          <FormField field={fields.tspBlogUrl} label="Blog feed address">
            {(props) => <Input {...props} type="url" placeholder="https://…" />}
          </FormField>
          <FormField field={fields.tspKbUrl} label="Knowledge-base feed address">
            {(props) => <Input {...props} type="url" placeholder="https://…" />}
          </FormField>
        </Section>
        <div>
          <SubmitButton pending={saving} pendingLabel="Saving...">
            Save settings
          </SubmitButton>
        </div>
      </Form>
    </div>
  );
}
