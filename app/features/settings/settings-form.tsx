import { useEffect } from "react";
import { Form } from "react-router";
import { toast } from "~/components/toaster";
import { FormErrors, FormField, SubmitButton, useFormFailure, useIsSubmitting, useSchemaForm } from "~/components/forms";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Textarea } from "~/components/ui/textarea";
import { UploadUrlInput } from "~/components/upload-url-input";
import { AccentColourInput, FontPairingChoice } from "./brand-fields";
import { settingsFormValues, siteSettingsFormSchema, SETTINGS_LIMITS, type SiteSettings } from "./settings-schema";

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

const SAVE_HINT = "Save settings to use it.";
const LINKS_HINT = 'One link a line, in order: "Label | https://…".';

/** /admin/settings: the site's identity, addresses and feeds (admins only). */
export function SettingsForm({ settings }: { settings: SiteSettings }) {
  // The page's other forms post an intent; their failures are theirs to show.
  const failure = useFormFailure();
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
            {(props) => (
              <UploadUrlInput {...props} defaultValue={fields.portraitUrl.initialValue ?? ""} label="Portrait" hint={SAVE_HINT} />
            )}
          </FormField>
          <FormField
            field={fields.logoUrl}
            label="Logo mark"
            controlled
            hint={hint("Shown beside the site name in the top bar; also the favicon when none is set. Empty: the site name's initials.")}
          >
            {(props) => <UploadUrlInput {...props} defaultValue={fields.logoUrl.initialValue ?? ""} label="Logo mark" hint={SAVE_HINT} />}
          </FormField>
          <FormField
            field={fields.faviconUrl}
            label="Favicon"
            controlled
            hint={hint("The browser tab and home-screen icon (a square image of 512×512 or more works best); its sizes are made on save.")}
          >
            {(props) => <UploadUrlInput {...props} defaultValue={fields.faviconUrl.initialValue ?? ""} label="Favicon" hint={SAVE_HINT} />}
          </FormField>
          <FormField
            field={fields.socialImageUrl}
            label="Default social image"
            controlled
            hint={hint("The preview image of pages without one of their own (1200×630 works best).")}
          >
            {(props) => (
              <UploadUrlInput {...props} defaultValue={fields.socialImageUrl.initialValue ?? ""} label="Social image" hint={SAVE_HINT} />
            )}
          </FormField>
        </Section>
        <Section title="Look">
          <FormField
            field={fields.accentColor}
            label="Accent colour"
            controlled
            hint={hint(
              "Buttons, links and highlights across the site and its share images; the dark theme uses a lighter tone of it. It must reach a contrast of 4.5:1 as text on white and with its button text. Empty: the theme's own blue.",
            )}
          >
            {(props) => <AccentColourInput {...props} initialValue={fields.accentColor.initialValue ?? ""} />}
          </FormField>
          <FontPairingChoice field={fields.fontPairing} formId={form.id} initialValue={fields.fontPairing.initialValue ?? "system"} />
        </Section>
        <Section title="Contact and links">
          <FormField
            field={fields.contactEmail}
            label="Contact email"
            hint={hint("Shown on the Contact page. Empty: no address is shown.")}
          >
            {(props) => <Input {...props} type="email" autoComplete="email" />}
          </FormField>
          <FormField
            field={fields.resumeUrl}
            label="Resume link"
            controlled
            hint={hint("Upload your resume (a PDF, served as a download named after you), or give a site path or web address.")}
          >
            {(props) => (
              <UploadUrlInput
                {...props}
                defaultValue={fields.resumeUrl.initialValue ?? ""}
                label="Resume (PDF)"
                kind="pdf"
                hint={SAVE_HINT}
              />
            )}
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
        </Section>
        <Section title="Booking">
          <FormField
            field={fields.bookingMode}
            select
            label="Booking"
            hint={hint(
              "How visitors book a call from the home page's Reach Me section. An external page is always offered as an 'Open the booking page' link; it is embedded only when you choose so.",
            )}
          >
            {(props) => (
              <select {...props} className="h-9 rounded-md border bg-background px-2 text-sm">
                <option value="built-in">Built-in: visitors book at /book (Bookings in the sidebar)</option>
                <option value="external-link">External scheduling page, as a link</option>
                <option value="external-embed">External scheduling page, embedded (with the link)</option>
                <option value="off">Off: no Reach Me section</option>
              </select>
            )}
          </FormField>
          <FormField
            field={fields.schedulingUrl}
            label="Scheduling page URL"
            hint={hint("For the external choices, e.g. your Calendly page.")}
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
