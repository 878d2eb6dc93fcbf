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
import { MEDIA_SEARCH_MAX, sizeOf } from "~/features/uploads/media-library";
import { deleteMediaUpload, listMediaLibrary } from "~/features/uploads/media-library.server";
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
  const q = new URL(request.url).searchParams.get("q") ?? "";
  return withPageFailures(() => listMediaLibrary(getDb(), user, { q, page: pageParam(request) }));
}

const idSchema = z.object({ id: z.uuid("Unknown upload") });

export async function action({ request }: Route.ActionArgs) {
  return handleAdminForm(request, "posts", {
    delete: async ({ db, actor, form }) => {
      await deleteMediaUpload(db, actor, parseOrThrow(idSchema, form).id);
      return { ok: true as const, message: "Upload deleted." };
    },
  });
}

export default function Media({ loaderData }: Route.ComponentProps) {
  const { items, q, page, pageCount, count, storageBytes } = loaderData;
  // The delete's result is reported here, not by the card: a deleted card is gone before its answer.
  const fetcher = useFetcher<{ ok: true; message: string } | { ok: false; error: string }>();
  const busy = fetcher.state !== "idle";
  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data) return;
    if (fetcher.data.ok) toast.success(fetcher.data.message);
    else toast.error("Error", { description: fetcher.data.error });
  }, [fetcher.state, fetcher.data]);
  const onDelete = (id: string) => fetcher.submit({ intent: "delete", id }, { method: "post" });
  return (
    <section className="max-w-5xl">
      <h1 className="text-3xl font-bold">Media</h1>
      <p className="mt-2 text-muted-foreground">
        {count} {count === 1 ? "upload" : "uploads"} · {sizeOf(storageBytes)} stored (originals and resized copies)
      </p>
      <Form method="get" role="search" aria-label="Find uploads" className="mt-6 flex flex-wrap items-end gap-3">
        <div className="grid gap-1.5">
          <Label htmlFor="media-q">Search by file name</Label>
          <Input key={q} id="media-q" name="q" type="search" defaultValue={q} maxLength={MEDIA_SEARCH_MAX} className="w-64" />
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
        href={(n) => `/admin/media?${new URLSearchParams({ ...(q ? { q } : {}), page: String(n) }).toString()}`}
        prevLabel="Previous"
        nextLabel="Next"
      />
    </section>
  );
}

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
      <img
        src={item.url}
        alt=""
        loading="lazy"
        width={item.width}
        height={item.height}
        className="aspect-video w-full bg-muted object-contain"
      />
      <div className="flex flex-1 flex-col gap-1 p-3 text-sm">
        <div className="flex items-center justify-between gap-2">
          <h2 className="font-semibold [overflow-wrap:anywhere]">{name}</h2>
          <Badge variant={item.used ? "default" : "outline"}>{item.used ? "In use" : "Unused"}</Badge>
        </div>
        <p className="text-muted-foreground">
          {item.width} × {item.height} · {sizeOf(item.byteSize)}
        </p>
        <p className="text-muted-foreground">
          {item.uploader ?? "Unknown"} · <Timestamp iso={item.createdAt} format="local" />
        </p>
        <p className="break-all text-xs text-muted-foreground">{item.url}</p>
        {item.canDelete ? (
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
                ? "Something still shows this file: it cannot be deleted until it is removed from there."
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
