import { useEffect, useId, useState } from "react";
import { Form, Link, useActionData } from "react-router";
import { FieldError, SubmitButton, useIsSubmitting } from "~/components/forms";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Textarea } from "~/components/ui/textarea";
import { AutosaveRestore } from "~/features/posts/editor/autosave-restore";
import { AutosaveStatusText } from "~/features/posts/editor/autosave-status";
import { ContentEditor } from "~/features/posts/editor/content-editor";
import { RevisionsDialog } from "~/features/posts/editor/revisions-dialog";
import { useAutosave } from "~/features/posts/editor/use-autosave";
import type { FormFailure } from "~/lib/forms";
import { ownerPagePath, PAGE_LIMITS } from "./owner-page-schema";

export const PAGE_AUTOSAVE_URL = "/api/pages/autosave";

export interface PageFormValues {
  title: string;
  address: string;
  content: string;
  metaTitle: string;
  metaDescription: string;
  published: boolean;
  commentsEnabled: boolean;
}

interface Props {
  /** The page being edited (its id and version), or null for a new page. */
  page: { id: string; version: number; address: string; published: boolean } | null;
  initial: PageFormValues;
  /** The author's unsaved text newer than the saved page, offered back. */
  autosave: { title: string; content: string; savedAt: string; savedAtLabel: string } | null;
}

type FieldName = keyof PageFormValues;

/** A page's editor: title, address, content in the posts' editor (toolbar, images, preview), SEO fields, published. */
export function PageForm({ page, initial, autosave }: Props) {
  const ids = useId();
  const actionData = useActionData<FormFailure>();
  const failure = actionData && !actionData.ok ? actionData : undefined;
  const saving = useIsSubmitting();
  const [values, setValues] = useState(initial);
  const [uploading, setUploading] = useState(false);
  const [offer, setOffer] = useState(autosave);
  const set = <K extends FieldName>(key: K, value: PageFormValues[K]) => setValues((v) => ({ ...v, [key]: value }));
  const { status, markSaved } = useAutosave({
    url: PAGE_AUTOSAVE_URL,
    postId: page?.id,
    category: "",
    baseVersion: page?.version,
    fields: { title: values.title, content: values.content },
    enabled: !saving,
  });
  // A server reply re-fills the fields it checked (the failed save's values stay in the form).
  useEffect(() => {
    if (failure) document.getElementById(`${ids}-error`)?.focus();
  }, [failure, ids]);

  const errors = (name: FieldName) => failure?.result?.error?.[name] ?? undefined;
  const fieldProps = (name: FieldName) => {
    const id = `${ids}-${name}`;
    const invalid = Boolean(errors(name)?.length);
    return { id, name, ...(invalid ? { "aria-invalid": true as const, "aria-describedby": `${id}-error` } : {}) };
  };
  const field = (
    name: Exclude<FieldName, "published" | "commentsEnabled" | "content">,
    label: string,
    control: "input" | "textarea",
    hint?: string,
    max?: number,
  ) => {
    const props = fieldProps(name);
    return (
      <div className="grid gap-2">
        <Label htmlFor={props.id}>{label}</Label>
        {control === "input" ? (
          <Input {...props} value={values[name]} maxLength={max} onChange={(e) => set(name, e.target.value)} />
        ) : (
          <Textarea {...props} rows={2} value={values[name]} maxLength={max} onChange={(e) => set(name, e.target.value)} />
        )}
        {hint ? <p className="text-sm text-muted-foreground">{hint}</p> : null}
        <FieldError id={`${props.id}-error`} errors={errors(name)} />
      </div>
    );
  };
  const toggle = (name: "published" | "commentsEnabled", label: string) => (
    <div className="flex items-center gap-3">
      <input
        type="checkbox"
        id={`${ids}-${name}`}
        name={name}
        checked={values[name]}
        onChange={(e) => set(name, e.target.checked)}
        className="size-4 accent-primary"
      />
      <label htmlFor={`${ids}-${name}`} className="text-sm font-medium">
        {label}
      </label>
    </div>
  );
  const contentProps = fieldProps("content");

  return (
    <div className="flex flex-col gap-6">
      <div>
        <Link to="/admin/pages" className="text-sm text-primary underline hover:no-underline">
          Back to pages
        </Link>
        <h1 className="mt-2 text-2xl font-bold">{page ? `Edit page: ${initial.title}` : "New page"}</h1>
        {page?.published ? (
          <p className="mt-2 text-sm">
            <a href={ownerPagePath(page.address)} className="text-primary underline hover:no-underline">
              View the page at {ownerPagePath(page.address)}
            </a>
          </p>
        ) : null}
      </div>
      {offer ? (
        <AutosaveRestore
          url={PAGE_AUTOSAVE_URL}
          savedAt={offer.savedAt}
          savedAtLabel={offer.savedAtLabel}
          postId={page?.id}
          category=""
          onRestore={() => {
            const restored = { ...values, title: offer.title, content: offer.content };
            setValues(restored);
            markSaved({ title: restored.title, content: restored.content });
            setOffer(null);
          }}
          onDiscard={() => setOffer(null)}
        />
      ) : null}
      <Form method="post" className="flex flex-col gap-6" aria-busy={saving}>
        <input type="hidden" name="intent" value="save" />
        {page ? <input type="hidden" name="version" value={page.version} /> : null}
        {failure ? (
          <p
            id={`${ids}-error`}
            tabIndex={-1}
            role="alert"
            className="rounded-md border border-destructive/40 bg-destructive/10 p-3 text-sm text-destructive"
          >
            {failure.error}
          </p>
        ) : null}
        {field("title", "Title", "input", undefined, PAGE_LIMITS.title)}
        {field("address", "Address", "input", "One word or a few joined by hyphens, e.g. /speaking. The site's own addresses are taken.")}
        <div className="grid gap-2">
          <Label htmlFor={contentProps.id}>Content</Label>
          <ContentEditor
            textareaProps={contentProps}
            value={values.content}
            onChange={(content) => set("content", content)}
            onUploadingChange={setUploading}
          />
          <FieldError id={`${contentProps.id}-error`} errors={errors("content")} />
        </div>
        <fieldset className="grid gap-4 rounded-md border p-4">
          <legend className="px-1 text-sm font-medium">Search engines and sharing</legend>
          {field(
            "metaTitle",
            "Meta title (optional)",
            "input",
            "Shown in search results and link previews; the title when empty.",
            PAGE_LIMITS.metaTitle,
          )}
          {field(
            "metaDescription",
            "Meta description (optional)",
            "textarea",
            "One or two sentences for search results and link previews.",
            PAGE_LIMITS.metaDescription,
          )}
        </fieldset>
        {toggle("published", "Published (visitors see it; a draft is the not-found page for them)")}
        {toggle("commentsEnabled", "Comments (readers can comment under the page; moderated in Comments)")}
        <div className="flex flex-wrap items-center gap-3">
          <SubmitButton pending={saving} pendingLabel="Saving..." disabled={uploading}>
            {page ? "Save page" : "Create page"}
          </SubmitButton>
          <Button asChild variant="outline">
            <Link to="/admin/pages">Cancel</Link>
          </Button>
          <AutosaveStatusText status={status} />
          {page ? (
            <RevisionsDialog
              postId={page.id}
              url={`/api/pages/${page.id}/revisions`}
              current={values}
              onRestore={(r) => setValues((v) => ({ ...v, title: r.title, content: r.content }))}
            />
          ) : null}
        </div>
      </Form>
    </div>
  );
}
