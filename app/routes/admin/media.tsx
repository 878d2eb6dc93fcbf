import { FileText } from "lucide-react";
import { z } from "zod";
import { Form, useFetcher } from "react-router";
import { useEffect, useState } from "react";
import { ConfirmDialog, DestructiveAction } from "~/components/confirm-dialog";
import { Pager } from "~/components/pager";
import { Timestamp } from "~/components/timestamp";
import { toast } from "~/components/toaster";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { handleAdminForm } from "~/features/admin/admin-form.server";
import { requireArea } from "~/features/auth/guards.server";
import { ALT_MAX, ALT_TOO_LONG } from "~/features/media/media";
import { MEDIA_SEARCH_MAX, mediaKindOf, sizeOf, type MediaKindFilter } from "~/features/uploads/media-library";
import { cleanOrphanedUploads, deleteMediaUpload, listMediaLibrary, setUploadAlt } from "~/features/uploads/media-library.server";
import { getDb } from "~/server/db/client.server";
import { parseOrThrow } from "~/server/errors.server";
import { withPageFailures } from "~/server/failure-reply.server";
import { pageParam } from "~/server/pagination.server";
import type { Route } from "./+types/media";

export function meta() {
  return [{ title: "Media" }, { name: "robots", content: "noindex" }];
}

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireArea(request, "posts");
  const params = new URL(request.url).searchParams;
  const q = params.get("q") ?? "";
  const kind = mediaKindOf(params.get("kind"));
  return withPageFailures(() => listMediaLibrary(getDb(), user, { q, kind, page: pageParam(request) }));
}

const idSchema = z.object({ id: z.uuid("Unknown upload") });
const altSchema = idSchema.extend({ alt: z.string().trim().max(ALT_MAX, ALT_TOO_LONG).default("") });

export async function action({ request }: Route.ActionArgs) {
  return handleAdminForm(request, "posts", {
    delete: async ({ db, actor, form }) => {
      await deleteMediaUpload(db, actor, parseOrThrow(idSchema, form).id);
      return { ok: true as const, message: "Upload deleted." };
    },
    orphans: async ({ db, actor }) => {
      const n = await cleanOrphanedUploads(db, actor);
      return { ok: true as const, message: n === 1 ? "1 unused upload deleted." : `${n} unused uploads deleted.` };
    },
    alt: async ({ db, actor, form }) => {
      const { id, alt } = parseOrThrow(altSchema, form);
      await setUploadAlt(db, actor, id, alt);
      return { ok: true as const, message: "Alt text saved." };
    },
  });
}

/** A fetcher whose answer (a message or an error) is shown as a toast once it arrives. */
function useToastingFetcher() {
  const fetcher = useFetcher<{ ok: true; message: string } | { ok: false; error: string }>();
  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data) return;
    if (fetcher.data.ok) toast.success(fetcher.data.message);
    else toast.error("Error", { description: fetcher.data.error });
  }, [fetcher.state, fetcher.data]);
  return fetcher;
}

export default function Media({ loaderData }: Route.ComponentProps) {
  const { items, q, kind, page, pageCount, count, storageBytes, orphans, canCleanOrphans } = loaderData;
  // The delete's result is reported here, not by the card: a deleted card is gone before its answer.
  const fetcher = useToastingFetcher();
  const busy = fetcher.state !== "idle";
  const onDelete = (id: string) => fetcher.submit({ intent: "delete", id }, { method: "post" });
  return (
    <section className="max-w-5xl">
      <h1 className="text-3xl font-bold">Media</h1>
      <p className="mt-2 text-muted-foreground">
        {count} {count === 1 ? "upload" : "uploads"} · {sizeOf(storageBytes)} stored (originals and resized copies)
      </p>
      <Orphans orphans={orphans} canClean={canCleanOrphans} />
      <Form method="get" role="search" aria-label="Find uploads" className="mt-6 flex flex-wrap items-end gap-3">
        <div className="grid gap-1.5">
          <Label htmlFor="media-q">Search by name or alt text</Label>
          <Input key={q} id="media-q" name="q" type="search" defaultValue={q} maxLength={MEDIA_SEARCH_MAX} className="w-64" />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="media-kind">Kind</Label>
          <select
            id="media-kind"
            name="kind"
            key={kind ?? ""}
            defaultValue={kind ?? ""}
            className="h-9 rounded-md border border-input bg-background px-3 text-sm"
          >
            <option value="">All kinds</option>
            {(Object.keys(KIND_LABEL) as MediaKindFilter[]).map((k) => (
              <option key={k} value={k}>
                {KIND_LABEL[k]}
              </option>
            ))}
          </select>
        </div>
        <Button type="submit" variant="outline">
          Search
        </Button>
      </Form>
      {items.length === 0 ? (
        <p className="mt-10 text-center text-muted-foreground">No uploads found.</p>
      ) : (
        <ul aria-label="Uploads" className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {items.map((item) => (
            <MediaCard key={item.id} item={item} busy={busy} onDelete={onDelete} />
          ))}
        </ul>
      )}
      <Pager
        label="Media pages"
        page={page}
        pageCount={pageCount}
        href={(n) => `/admin/media?${new URLSearchParams({ ...(q ? { q } : {}), ...(kind ? { kind } : {}), page: String(n) }).toString()}`}
        prevLabel="Previous"
        nextLabel="Next"
      />
    </section>
  );
}

const KIND_LABEL: Record<MediaKindFilter, string> = { images: "Images", other: "Other files" };

function MediaCard({
  item,
  busy,
  onDelete,
}: {
  item: Route.ComponentProps["loaderData"]["items"][number];
  busy: boolean;
  onDelete: (id: string) => Promise<void>;
}) {
  const [open, setOpen] = useState(false);
  const name = item.originalName ?? "Untitled upload";
  return (
    <li className="flex flex-col overflow-hidden rounded-lg border">
      {/* The file's name below says what it is; the thumbnail adds nothing for a screen reader. */}
      {item.isImage ? (
        <img
          src={item.url}
          alt=""
          loading="lazy"
          width={item.width}
          height={item.height}
          className="aspect-video w-full bg-muted object-contain"
        />
      ) : (
        <div className="flex aspect-video w-full items-center justify-center bg-muted text-muted-foreground">
          <FileText aria-hidden className="size-10" />
        </div>
      )}
      <div className="flex flex-1 flex-col gap-1 p-3 text-sm">
        <div className="flex items-center justify-between gap-2">
          <h2 className="font-semibold [overflow-wrap:anywhere]">{name}</h2>
          <Badge variant={item.used ? "default" : "outline"}>{item.used ? "In use" : "Unused"}</Badge>
        </div>
        <p className="text-muted-foreground">
          {item.isImage ? `${item.width} × ${item.height} · ` : `${item.contentType} · `}
          {sizeOf(item.byteSize)}
        </p>
        <p className="text-muted-foreground">
          {item.uploader ?? "Unknown"} · <Timestamp iso={item.createdAt} format="local" />
        </p>
        <p className="break-all text-xs text-muted-foreground">{item.url}</p>
        <UsesList name={name} uses={item.uses} />
        {item.isImage ? <AltTextForm id={item.id} name={name} alt={item.alt} editable={item.canManage} /> : null}
        {item.canManage ? (
          <ConfirmDialog
            open={open}
            onOpenChange={setOpen}
            trigger={
              <Button type="button" variant="ghost" size="sm" className="mt-auto self-start text-destructive" aria-label={`Delete ${name}`}>
                Delete
              </Button>
            }
            title="Delete this upload?"
            description={
              item.used
                ? `“${name}” is still used by ${item.uses.map((u) => u.label).join(", ")}: it cannot be deleted until it is removed from there.`
                : `“${name}” and its resized copies are deleted permanently. This cannot be undone.`
            }
            busy={busy}
          >
            <DestructiveAction busy={busy} onConfirm={() => void onDelete(item.id).then(() => setOpen(false))}>
              {busy ? "Deleting..." : "Delete"}
            </DestructiveAction>
          </ConfirmDialog>
        ) : null}
      </div>
    </li>
  );
}

/** The uploads nothing uses, older than a day, listed by name; an admin deletes them all in one confirmed step. */
function Orphans({ orphans, canClean }: { orphans: { id: string; name: string; byteSize: number }[]; canClean: boolean }) {
  const fetcher = useToastingFetcher();
  const [open, setOpen] = useState(false);
  const busy = fetcher.state !== "idle";
  if (orphans.length === 0) return null;
  const total = sizeOf(orphans.reduce((sum, o) => sum + o.byteSize, 0));
  const summary = `${orphans.length} ${orphans.length === 1 ? "upload" : "uploads"} nothing uses, older than a day (${total})`;
  return (
    <section aria-labelledby="media-orphans" className="mt-6 rounded-lg border p-4 text-sm">
      <h2 id="media-orphans" className="font-semibold">
        Orphans
      </h2>
      <p className="mt-1 text-muted-foreground">{summary}</p>
      <details className="mt-2">
        <summary className="cursor-pointer">Show their names</summary>
        <ul aria-label="Orphans" className="mt-2 list-disc pl-5">
          {orphans.map((o) => (
            <li key={o.id} className="[overflow-wrap:anywhere]">
              {o.name}
            </li>
          ))}
        </ul>
      </details>
      {canClean ? (
        <ConfirmDialog
          open={open}
          onOpenChange={setOpen}
          trigger={
            <Button type="button" variant="outline" size="sm" className="mt-3 text-destructive">
              Delete orphans
            </Button>
          }
          title="Delete every orphan?"
          description={`${summary}: they and their resized copies are deleted permanently. This cannot be undone.`}
          busy={busy}
        >
          <DestructiveAction
            busy={busy}
            onConfirm={() => void fetcher.submit({ intent: "orphans" }, { method: "post" }).then(() => setOpen(false))}
          >
            {busy ? "Deleting..." : "Delete orphans"}
          </DestructiveAction>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}

/** Where the upload is used, each place linked where it can be edited (none: "Not used anywhere"). */
function UsesList({ name, uses }: { name: string; uses: { label: string; href: string | null }[] }) {
  if (uses.length === 0) return <p className="text-muted-foreground">Not used anywhere</p>;
  return (
    <div>
      <p className="font-medium">Used in</p>
      <ul aria-label={`Where ${name} is used`} className="list-disc pl-5">
        {uses.map((use) => (
          <li key={use.label}>
            {use.href ? (
              <a href={use.href} className="underline underline-offset-2">
                {use.label}
              </a>
            ) : (
              use.label
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The upload's alt text, saved with the file: the alt every place that uses it shows, and where it is inserted next. */
function AltTextForm({ id, name, alt, editable }: { id: string; name: string; alt: string; editable: boolean }) {
  const fetcher = useToastingFetcher();
  const busy = fetcher.state !== "idle";
  const fieldId = `media-alt-${id}`;
  if (!editable) return <p className="text-muted-foreground">Alt text: {alt || "none"}</p>;
  return (
    <fetcher.Form method="post" className="mt-1 grid gap-1.5" aria-label={`Alt text of ${name}`}>
      <input type="hidden" name="intent" value="alt" />
      <input type="hidden" name="id" value={id} />
      <Label htmlFor={fieldId}>Alt text</Label>
      <div className="flex gap-2">
        <Input id={fieldId} name="alt" type="text" defaultValue={alt} maxLength={ALT_MAX} className="min-w-0 flex-1" />
        <Button type="submit" variant="outline" size="sm" disabled={busy} aria-label={`Save alt text of ${name}`}>
          {busy ? "Saving..." : "Save"}
        </Button>
      </div>
    </fetcher.Form>
  );
}
