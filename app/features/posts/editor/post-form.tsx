import { ArrowDown, ArrowUp, ExternalLink, Maximize2, Minimize2, Star, X } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { Link, useBlocker, useFetcher } from "react-router";
import { toast } from "~/components/toaster";
import { FieldError, FormField, isFormIntent, SubmitButton, useSchemaForm } from "~/components/forms";
import { Button, buttonVariants } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Switch } from "~/components/ui/switch";
import { Textarea } from "~/components/ui/textarea";
import { detectMediaKind, MEDIA_URL_MESSAGE, type MediaKind } from "~/features/media/media";
import { categoryPath, parseCategory, postPath, type Category } from "~/lib/categories";
import { firstMessage, parseSubmission, type FormFailure } from "~/lib/forms";
import { cn } from "~/lib/utils";
import { AddressFields } from "./address-fields";
import { ContentEditor } from "./content-editor";
import { LibraryPickerDialog, type PickedImage } from "~/components/library-picker-dialog";
import { uploadImageFiles } from "./upload-images";
import { AutosaveRestore } from "./autosave-restore";
import { AutosaveStatusText } from "./autosave-status";
import { LeaveConfirmation } from "./leave-confirmation";
import { RevisionsDialog } from "./revisions-dialog";
import { useAutosave, type AutosaveFields } from "./use-autosave";
import { ScheduleField } from "./schedule-field";
import { EmailChoice, type PostNewsletter } from "./email-choice";
import type { AutosaveDetails } from "../write/autosave-details";
import { postFormSchema } from "../write/post-schema";
import { countWords } from "./word-count";
import { useWritingFocus } from "./writing-focus";

export interface EditableMedia {
  mediaType: MediaKind;
  mediaUrl: string;
  caption: string;
  /** Alt text (images); required to publish. */
  alt: string;
  uploadId?: string;
}

/** An image in the 'Uploaded images' grid: a gallery media item only once the author adds it. */
interface UploadedImage {
  url: string;
  alt: string;
  uploadId?: string;
}

interface FormValues {
  /** Edit mode: the post's category and slug (its address); creating, the address's category. */
  category: Category;
  slug: string;
  title: string;
  excerpt: string;
  content: string;
  featuredImageUrl: string;
  featuredImageAlt: string;
  published: boolean;
  featured: boolean;
  media: EditableMedia[];
  schedule: boolean;
  /** 'Publish at' as a datetime-local value in the site's time zone. */
  publishAt: string;
}

interface AutosaveOffer extends Omit<AutosaveFields, "details"> {
  /** The form's other fields; null for an autosave from before they were kept. */
  details: AutosaveDetails | null;
  savedAt: string;
  savedAtLabel: string;
}

/** A post's statistics as the editor shows them (the analytics feature's postStatistics). */
interface PostFigures {
  views: number;
  visitors: number;
  conversions: { contact: number; subscription: number; booking: number };
}

interface Props {
  category: Category;
  post: (FormValues & { id: string; slug: string; version: number; savedAtLabel: string }) | null;
  /** The site's time zone, in which 'Publish at' is entered. */
  timeZone: string;
  newsletter: PostNewsletter;
  /** Unsaved changes newer than the post, offered as 'Restore unsaved changes'. */
  autosave: AutosaveOffer | null;
  /** The post's last 30 days (views, visitors, the conversions it was the last post read before), when shown to this user. */
  figures?: PostFigures | null;
}

/** "Last 30 days: 12 views · 8 visitors · 1 contact message · 0 subscriptions · 0 booked calls". */
function figuresText(f: PostFigures): string {
  const n = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;
  return [
    `Last 30 days: ${n(f.views, "view", "views")}`,
    n(f.visitors, "visitor", "visitors"),
    n(f.conversions.contact, "contact message", "contact messages"),
    n(f.conversions.subscription, "subscription", "subscriptions"),
    n(f.conversions.booking, "booked call", "booked calls"),
  ].join(" · ");
}

/** What autosave sends: the text, and every other field as one JSON value in a fixed key order. */
function autosaveFieldsOf(v: FormValues): AutosaveFields {
  // Read back through autosaveDetailsSchema on the server.
  const details = {
    category: v.category,
    slug: v.slug,
    published: v.published,
    featured: v.featured,
    media: v.media,
    schedule: v.schedule,
    publishAt: v.publishAt,
  };
  return {
    title: v.title,
    excerpt: v.excerpt,
    content: v.content,
    featuredImageUrl: v.featuredImageUrl,
    featuredImageAlt: v.featuredImageAlt,
    details: JSON.stringify(details),
  };
}

/** The form after 'Restore unsaved changes': all the saved fields (creating, the address stays the page's). */
function restoredValues(current: FormValues, offer: AutosaveOffer, editing: boolean): FormValues {
  const text = {
    title: offer.title,
    excerpt: offer.excerpt,
    content: offer.content,
    featuredImageUrl: offer.featuredImageUrl,
    featuredImageAlt: offer.featuredImageAlt,
  };
  const d = offer.details;
  if (!d) return { ...current, ...text };
  return {
    ...current,
    ...text,
    ...(editing ? { category: d.category, slug: d.slug } : {}),
    published: d.published,
    featured: d.featured,
    media: d.media,
    schedule: d.schedule,
    publishAt: d.publishAt,
  };
}

const EMPTY: Omit<FormValues, "category"> = {
  slug: "",
  title: "",
  excerpt: "",
  content: "",
  featuredImageUrl: "",
  featuredImageAlt: "",
  published: false,
  featured: false,
  media: [],
  schedule: false,
  publishAt: "",
};

/** The form's fields of a saved post (without its id, version and save time). */
function formValuesOf(post: NonNullable<Props["post"]>): FormValues {
  const { id: _id, version: _version, savedAtLabel: _saved, ...values } = post;
  return values;
}

/** SPEC §2 Post form, create and edit modes. */
export function PostForm({ category, post, timeZone, newsletter, autosave, figures = null }: Props) {
  const fetcher = useFetcher<FormFailure>();
  const initial = useRef<FormValues>(post ? formValuesOf(post) : { ...EMPTY, category });
  const [focusMode, setFocusMode] = useWritingFocus();
  const [values, setValues] = useState<FormValues>(initial.current);
  const [form, fields] = useSchemaForm({ id: "post-form", schema: postFormSchema, lastResult: fetcher.data?.result });
  const [uploading, setUploading] = useState(false);
  const [emailSubscribers, setEmailSubscribers] = useState(newsletter.emailByDefault);
  // Text typed (or a category chosen) before the page finished loading sits in the fields but not in
  // the form's state: take it over once, when the form comes alive, so nothing typed early is lost.
  useEffect(() => {
    const element = document.getElementById(form.id);
    if (!(element instanceof HTMLFormElement)) return;
    const typed: Partial<FormValues> = {};
    for (const name of ["title", "slug", "excerpt", "content", "featuredImageUrl", "featuredImageAlt", "publishAt"] as const) {
      const field = element.elements.namedItem(name);
      if ((field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement) && field.value !== initial.current[name]) {
        typed[name] = field.value;
      }
    }
    const select = element.elements.namedItem("category");
    const chosen = select instanceof HTMLSelectElement ? parseCategory(select.value) : null;
    if (chosen && chosen !== initial.current.category) typed.category = chosen;
    if (Object.keys(typed).length > 0) setValues((v) => ({ ...v, ...typed }));
  }, [form.id]);
  // Edit mode: the gallery's images are in the grid from the start; new uploads join them.
  const [uploadedImages, setUploadedImages] = useState<UploadedImage[]>(() =>
    (post?.media ?? []).filter((m) => m.mediaType === "image").map((m) => ({ url: m.mediaUrl, alt: m.alt, uploadId: m.uploadId })),
  );
  const [mediaUrl, setMediaUrl] = useState("");
  const [mediaCaption, setMediaCaption] = useState("");
  const [mediaError, setMediaError] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const ids = useId();
  const busy = fetcher.state !== "idle";
  const busyRef = useRef(false);
  busyRef.current = busy;
  const dirty = JSON.stringify(values) !== JSON.stringify(initial.current);
  const [offer, setOffer] = useState(autosave);
  const autosaveFields = autosaveFieldsOf(values);
  const { status: autosaveStatus, markSaved } = useAutosave({
    postId: post?.id,
    category,
    baseVersion: post?.version,
    fields: autosaveFields,
    enabled: !busy,
  });

  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => dirty && !busyRef.current && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    return () => window.removeEventListener("beforeunload", onBeforeUnload);
  }, [dirty]);

  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data?.error) return;
    toast.error("Error", { description: fetcher.data.error });
  }, [fetcher.state, fetcher.data]);

  // Picking a featured image or editing the gallery changes fields without typing in them: check them again then.
  const featuredChecked = fields.featuredImageUrl.errors !== undefined || fields.featuredImageAlt.errors !== undefined;
  useEffect(() => {
    if (!featuredChecked) return;
    form.validate({ name: fields.featuredImageUrl.name });
    form.validate({ name: fields.featuredImageAlt.name });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a new value needs a new check
  }, [values.featuredImageUrl, values.featuredImageAlt]);
  const mediaChecked = Object.keys(fields.media.allErrors).length > 0;
  useEffect(() => {
    if (mediaChecked) form.validate({ name: fields.media.name });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a new value needs a new check
  }, [values.media]);

  const set = <K extends keyof FormValues>(key: K, value: FormValues[K]) => setValues((v) => ({ ...v, [key]: value }));

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    if (isFormIntent(event)) {
      form.onSubmit(event);
      return;
    }
    if (busy || uploading) {
      event.preventDefault();
      return;
    }
    // Conform checks the form with the shared schema and stops an invalid one here.
    form.onSubmit(event);
    if (event.defaultPrevented) {
      const result = parseSubmission(new FormData(event.currentTarget), postFormSchema).reply();
      toast.error("Error", { description: firstMessage(result) ?? "Please check the form." });
    }
  }

  async function onFiles(files: FileList | null) {
    setUploading(true);
    try {
      const uploaded = await uploadImageFiles(Array.from(files ?? []));
      if (!uploaded) return;
      // Uploads wait in the grid: the author makes one the featured image or adds it to the gallery. A
      // post without a featured image takes the first one uploaded (the author can pick another).
      setUploadedImages((list) => [...list, ...uploaded.map((img) => ({ url: img.url, alt: "", uploadId: img.id }))]);
      const first = uploaded[0];
      if (first) setValues((v) => (v.featuredImageUrl ? v : { ...v, featuredImageUrl: first.url, featuredImageAlt: "" }));
      toast.success("Success", { description: `${uploaded.length} image(s) uploaded successfully` });
    } finally {
      setUploading(false);
      if (fileInput.current) fileInput.current.value = "";
    }
  }

  function addMediaUrl() {
    const url = mediaUrl.trim();
    const kind = detectMediaKind(url);
    if (!kind) {
      setMediaError(MEDIA_URL_MESSAGE);
      return;
    }
    setMediaError(null);
    set("media", [...values.media, { mediaType: kind, mediaUrl: url, caption: mediaCaption.trim(), alt: "" }]);
    setMediaUrl("");
    setMediaCaption("");
  }

  function moveMedia(index: number, delta: number) {
    const next = [...values.media];
    const target = index + delta;
    const a = next[index];
    const b = next[target];
    if (!a || !b) return;
    next[index] = b;
    next[target] = a;
    set("media", next);
  }

  function removeMedia(index: number) {
    set(
      "media",
      values.media.filter((_, i) => i !== index),
    );
  }

  /** One alt text per image: the grid, its gallery item and (when it is the featured image) the featured alt. */
  function setAlt(url: string, alt: string) {
    setUploadedImages((list) => list.map((img) => (img.url === url ? { ...img, alt } : img)));
    setValues((v) => ({
      ...v,
      media: v.media.map((m) => (m.mediaType === "image" && m.mediaUrl === url ? { ...m, alt } : m)),
      featuredImageAlt: v.featuredImageUrl === url ? alt : v.featuredImageAlt,
    }));
  }

  function makeFeatured(img: UploadedImage) {
    setValues((v) => ({ ...v, featuredImageUrl: img.url, featuredImageAlt: img.alt }));
  }

  /** A library image made the featured image joins the grid (once), where it can be added to the gallery. */
  function pickFeatured(img: PickedImage) {
    const picked = { url: img.url, alt: img.alt, uploadId: img.id };
    setUploadedImages((list) => (list.some((x) => x.url === img.url) ? list : [...list, picked]));
    setAlt(img.url, img.alt);
    makeFeatured(picked);
  }

  function toggleGallery(img: UploadedImage) {
    setValues((v) => ({
      ...v,
      media: inGallery(img.url)
        ? v.media.filter((m) => !(m.mediaType === "image" && m.mediaUrl === img.url))
        : [...v.media, { mediaType: "image", mediaUrl: img.url, caption: "", alt: img.alt, uploadId: img.uploadId }],
    }));
  }

  function removeUploaded(img: UploadedImage) {
    setUploadedImages((list) => list.filter((x) => x.url !== img.url));
    setValues((v) => ({
      ...v,
      media: v.media.filter((m) => !(m.mediaType === "image" && m.mediaUrl === img.url)),
      featuredImageUrl: v.featuredImageUrl === img.url ? "" : v.featuredImageUrl,
      featuredImageAlt: v.featuredImageUrl === img.url ? "" : v.featuredImageAlt,
    }));
  }

  const inGallery = (url: string) => values.media.some((m) => m.mediaType === "image" && m.mediaUrl === url);
  // A gallery image's alt-text error is shown beside the image in the grid; the others in the Media list.
  const altErrorOf = (url: string) => {
    const index = values.media.findIndex((m) => m.mediaType === "image" && m.mediaUrl === url);
    return index < 0 ? undefined : fields.media.allErrors[`${fields.media.name}[${index}].alt`];
  };
  const mediaErrors = Object.entries(fields.media.allErrors)
    .filter(([name]) => !name.endsWith(".alt"))
    .flatMap(([, errors]) => errors);

  return (
    <section className="mx-auto max-w-3xl" data-writing-focus={focusMode ? "on" : undefined}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <h1 className="text-3xl font-bold">{post ? `Edit Post - ${category}` : `Create New Post - ${category}`}</h1>
        <div className="flex flex-wrap items-center gap-2" data-focus-keep>
          {post ? (
            <Button asChild variant="outline" size="sm" data-focus-hidden>
              <Link to={postPath(initial.current.category, initial.current.slug)}>
                <ExternalLink aria-hidden />
                View post
              </Link>
            </Button>
          ) : null}
          <Button type="button" variant="outline" size="sm" aria-pressed={focusMode} onClick={() => setFocusMode(!focusMode)}>
            {focusMode ? <Minimize2 aria-hidden /> : <Maximize2 aria-hidden />}
            {focusMode ? "Leave distraction-free mode" : "Distraction-free mode"}
          </Button>
        </div>
      </div>
      <p className="mt-2 flex flex-wrap gap-x-4 text-sm text-muted-foreground">
        {post ? <span data-testid="last-saved">Last saved {post.savedAtLabel}</span> : null}
        <span data-testid="word-count">{wordCountLabel(countWords(values.content))}</span>
        {focusMode ? <span>Press Esc to leave distraction-free mode.</span> : null}
      </p>
      {figures ? (
        <p className="mt-1 text-sm text-muted-foreground" data-testid="post-figures" data-focus-hidden>
          {figuresText(figures)}
        </p>
      ) : null}
      <LeaveConfirmation blocker={blocker} />
      {offer ? (
        <AutosaveRestore
          savedAt={offer.savedAt}
          savedAtLabel={offer.savedAtLabel}
          postId={post?.id}
          category={category}
          onRestore={() => {
            const restored = restoredValues(values, offer, post !== null);
            setValues(restored);
            markSaved(autosaveFieldsOf(restored));
            setOffer(null);
          }}
          onDiscard={() => setOffer(null)}
        />
      ) : null}
      <fetcher.Form method="post" id={form.id} noValidate={form.noValidate} onSubmit={onSubmit} className="mt-8 space-y-6" aria-busy={busy}>
        <div data-focus-keep>
          <FormField field={fields.title} label="Title" controlled>
            {(props) => <Input {...props} value={values.title} onChange={(e) => set("title", e.target.value)} />}
          </FormField>
        </div>
        {post ? (
          <AddressFields
            category={values.category}
            slug={values.slug}
            fields={fields}
            onCategoryChange={(c) => set("category", c)}
            onSlugChange={(slug) => set("slug", slug)}
          />
        ) : null}
        <FormField field={fields.excerpt} label="Excerpt (optional)" controlled>
          {(props) => <Textarea {...props} rows={2} value={values.excerpt} onChange={(e) => set("excerpt", e.target.value)} />}
        </FormField>
        <div data-focus-keep>
          <FormField field={fields.content} label="Content" controlled>
            {(props) => (
              <ContentEditor
                textareaProps={props}
                value={values.content}
                onChange={(content) => set("content", content)}
                onUploadingChange={setUploading}
                onSetFeatured={pickFeatured}
              />
            )}
          </FormField>
        </div>
        <div role="group" aria-label="Featured image" className="space-y-3">
          <FormField field={fields.featuredImageUrl} label="Featured Image URL (optional)" controlled>
            {(props) => (
              <Input
                {...props}
                type="text"
                inputMode="url"
                placeholder="Or upload an image below"
                value={values.featuredImageUrl}
                onChange={(e) => set("featuredImageUrl", e.target.value)}
              />
            )}
          </FormField>
          <FormField field={fields.featuredImageAlt} label="Alt text" controlled>
            {(props) => (
              <Input
                {...props}
                type="text"
                placeholder="Describe the featured image for people who cannot see it"
                value={values.featuredImageAlt}
                onChange={(e) =>
                  values.featuredImageUrl ? setAlt(values.featuredImageUrl, e.target.value) : set("featuredImageAlt", e.target.value)
                }
              />
            )}
          </FormField>
          <LibraryPickerDialog trigger="button" onSetFeatured={pickFeatured} />
        </div>

        <div className="space-y-3">
          {/* One control: the file input itself, drawn as a button by its label. */}
          <input
            ref={fileInput}
            id={`${ids}-files`}
            type="file"
            accept="image/jpeg,image/png,image/webp,image/gif,image/avif"
            multiple
            className="peer sr-only"
            disabled={uploading}
            onChange={(e) => void onFiles(e.target.files)}
          />
          <label
            htmlFor={`${ids}-files`}
            className={cn(
              buttonVariants({ variant: "outline" }),
              "cursor-pointer peer-focus-visible:ring-[3px] peer-focus-visible:ring-ring/50 peer-disabled:pointer-events-none peer-disabled:opacity-50",
            )}
          >
            Upload Images
          </label>
          {uploading ? (
            <p role="status" className="text-sm text-muted-foreground">
              Uploading images...
            </p>
          ) : null}
          {uploadedImages.length > 0 ? (
            <ul className="grid grid-cols-2 gap-4 md:grid-cols-4" aria-label="Uploaded images">
              {uploadedImages.map((img, index) => {
                const n = index + 1;
                const featured = values.featuredImageUrl === img.url;
                const added = inGallery(img.url);
                const altId = `${ids}-uploaded-${index}-alt`;
                const altError = altErrorOf(img.url);
                return (
                  <li key={img.url} className="group relative min-w-0">
                    <div role="group" aria-label={`Image ${n}`} className="space-y-1">
                      <div className="relative">
                        <button
                          type="button"
                          onClick={() => makeFeatured(img)}
                          aria-pressed={featured}
                          aria-label={featured ? `Image ${n} (featured image)` : `Make image ${n} the featured image`}
                          className={cn(
                            "block w-full overflow-hidden rounded-md border-2 focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none",
                            featured ? "border-primary" : "border-transparent",
                          )}
                        >
                          <img src={img.url} alt={img.alt} className="aspect-square w-full object-cover" />
                          {featured ? (
                            <span className="absolute bottom-1 left-1 inline-flex items-center gap-1 rounded bg-primary px-1.5 py-0.5 text-xs text-primary-foreground">
                              <Star aria-hidden className="size-3" /> Featured
                            </span>
                          ) : null}
                        </button>
                        <button
                          type="button"
                          onClick={() => removeUploaded(img)}
                          aria-label={`Remove image ${n}`}
                          className="absolute top-1 right-1 rounded-full bg-destructive p-1 text-white opacity-0 transition-opacity group-hover:opacity-100 group-focus-within:opacity-100 focus-visible:opacity-100"
                        >
                          <X aria-hidden className="size-4" />
                        </button>
                      </div>
                      {featured ? (
                        // One alt text per image: the featured image's is the 'Featured image' group's field.
                        <p className="text-xs text-muted-foreground">Alt text is set under Featured image.</p>
                      ) : (
                        <>
                          <Label htmlFor={altId} className="text-xs">
                            Alt text
                          </Label>
                          <Input
                            id={altId}
                            type="text"
                            value={img.alt}
                            onChange={(e) => setAlt(img.url, e.target.value)}
                            aria-invalid={altError ? true : undefined}
                            aria-describedby={altError ? `${altId}-error` : undefined}
                          />
                          <FieldError id={`${altId}-error`} errors={altError} />
                        </>
                      )}
                      <Button
                        type="button"
                        size="sm"
                        variant={added ? "secondary" : "outline"}
                        aria-pressed={added}
                        onClick={() => toggleGallery(img)}
                      >
                        {added ? "In gallery" : "Add to gallery"}
                      </Button>
                    </div>
                  </li>
                );
              })}
            </ul>
          ) : null}
        </div>

        <fieldset className="min-w-0 space-y-3 rounded-md border p-4">
          <legend className="px-1 text-sm font-medium">Media</legend>
          <div className="grid gap-3 md:grid-cols-[2fr_1fr_auto] md:items-end">
            <div className="space-y-2">
              <Label htmlFor={`${ids}-media-url`}>Video URL (YouTube, Vimeo or video file)</Label>
              <Input
                id={`${ids}-media-url`}
                type="text"
                inputMode="url"
                value={mediaUrl}
                onChange={(e) => setMediaUrl(e.target.value)}
                aria-invalid={mediaError ? true : undefined}
                aria-describedby={mediaError ? `${ids}-media-error` : undefined}
              />
            </div>
            <div className="space-y-2">
              <Label htmlFor={`${ids}-media-caption`}>Caption (optional)</Label>
              <Input id={`${ids}-media-caption`} type="text" value={mediaCaption} onChange={(e) => setMediaCaption(e.target.value)} />
            </div>
            <Button type="button" variant="outline" onClick={addMediaUrl}>
              Add media
            </Button>
          </div>
          {mediaError ? (
            <p id={`${ids}-media-error`} className="text-sm text-destructive">
              {mediaError}
            </p>
          ) : null}
          <FieldError id={`${ids}-media-list-error`} errors={mediaErrors} />
          {values.media.length > 0 ? (
            <ol className="space-y-2" aria-label="Media items in display order">
              {values.media.map((m, index) => (
                <li key={`${m.mediaUrl}-${index}`} className="flex flex-wrap items-center gap-2 rounded border p-2">
                  <span className="w-16 text-xs font-medium uppercase text-muted-foreground">{m.mediaType}</span>
                  <span className="min-w-0 flex-1 truncate text-sm" title={m.mediaUrl}>
                    {m.mediaUrl}
                  </span>
                  <Input
                    aria-label={`Caption for media item ${index + 1}`}
                    placeholder="Caption"
                    className="w-full sm:w-40"
                    value={m.caption}
                    onChange={(e) =>
                      set(
                        "media",
                        values.media.map((x, i) => (i === index ? { ...x, caption: e.target.value } : x)),
                      )
                    }
                  />
                  <Button
                    type="button"
                    size="icon"
                    variant="ghost"
                    aria-label={`Move media item ${index + 1} up`}
                    disabled={index === 0}
                    onClick={() => moveMedia(index, -1)}
                  >
                    <ArrowUp aria-hidden />
                  </Button>
                  <Button
                    type="button"
                    size="icon"
                    variant="ghost"
                    aria-label={`Move media item ${index + 1} down`}
                    disabled={index === values.media.length - 1}
                    onClick={() => moveMedia(index, 1)}
                  >
                    <ArrowDown aria-hidden />
                  </Button>
                  <Button
                    type="button"
                    size="icon"
                    variant="ghost"
                    aria-label={`Remove media item ${index + 1}`}
                    onClick={() => removeMedia(index)}
                  >
                    <X aria-hidden />
                  </Button>
                </li>
              ))}
            </ol>
          ) : null}
          <input
            type="hidden"
            name="media"
            value={JSON.stringify(values.media.map((m) => ({ ...m, caption: m.caption || undefined, alt: m.alt || undefined })))}
          />
        </fieldset>

        <div className="flex items-center gap-3">
          <Switch
            id={`${ids}-published`}
            name="published"
            checked={values.published}
            onCheckedChange={(checked) => setValues((v) => ({ ...v, published: checked, schedule: checked ? false : v.schedule }))}
          />
          <Label htmlFor={`${ids}-published`}>Publish immediately</Label>
        </div>
        <div className="flex items-center gap-3">
          <Switch
            id={`${ids}-featured`}
            name="featured"
            checked={values.featured}
            onCheckedChange={(checked) => set("featured", checked)}
          />
          <Label htmlFor={`${ids}-featured`}>Feature on home page</Label>
        </div>
        <ScheduleField
          schedule={values.schedule}
          publishAt={values.publishAt}
          timeZone={timeZone}
          field={fields.publishAt}
          onScheduleChange={(checked) => setValues((v) => ({ ...v, schedule: checked, published: checked ? false : v.published }))}
          onPublishAtChange={(value) => set("publishAt", value)}
        />
        <EmailChoice
          newsletter={newsletter}
          goesLive={!initial.current.published && (values.published || values.schedule)}
          emailSubscribers={emailSubscribers}
          onChange={setEmailSubscribers}
          postId={post?.id}
          editPath={post ? `${postPath(initial.current.category, initial.current.slug)}/edit` : ""}
        />
        {post ? <input type="hidden" name="version" value={post.version} /> : null}

        <div className="flex gap-3">
          <SubmitButton pending={busy} pendingLabel="Saving..." disabled={uploading}>
            {post ? "Update Post" : "Create Post"}
          </SubmitButton>
          <Button asChild variant="outline">
            <Link to={categoryPath(category)}>Cancel</Link>
          </Button>
          <AutosaveStatusText status={autosaveStatus} />
          {post ? (
            <RevisionsDialog
              postId={post.id}
              current={values}
              onRestore={(r) =>
                setValues((v) => ({
                  ...v,
                  title: r.title,
                  excerpt: r.excerpt ?? "",
                  content: r.content,
                  featuredImageUrl: r.featuredImageUrl ?? "",
                  featuredImageAlt: r.featuredImageAlt ?? "",
                }))
              }
            />
          ) : null}
        </div>
      </fetcher.Form>
    </section>
  );
}

function wordCountLabel(n: number): string {
  return n === 1 ? "1 word" : `${n.toLocaleString("en-US")} words`;
}
