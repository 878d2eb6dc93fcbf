import { useEffect, useId, useState, type ReactNode } from "react";
import { Link, useFetcher } from "react-router";
import { ConfirmDialog, DestructiveAction } from "~/components/confirm-dialog";
import { toast } from "~/components/toaster";
import { AlertDialogAction } from "~/components/ui/alert-dialog";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Label } from "~/components/ui/label";
import { CATEGORIES, postPath } from "~/lib/categories";
import type { AdminPostsView } from "./admin-posts.server";
import { BULK_ACTIONS, bulkResultText, type BulkAction } from "./bulk-actions";

type AdminPost = AdminPostsView["posts"][number];

/** What the action answers: the counts and each skipped post's reason, or a failure. */
type BulkReply =
  { ok: true; action: BulkAction; done: number; skipped: { title: string; reason: string }[] } | { ok: false; error: string };

const ACTION_LABEL: Record<BulkAction, string> = {
  publish: "Publish",
  unpublish: "Unpublish",
  move: "Move to category",
  delete: "Delete",
};

const SELECT_CLASS = "h-9 rounded-md border border-input bg-background px-3 text-sm";

/** Sends one bulk action (a row's Delete is a bulk action of one post) and reports its result in a toast. */
function useBulkAction() {
  const fetcher = useFetcher<BulkReply>();
  const [skipped, setSkipped] = useState<{ title: string; reason: string }[]>([]);
  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data) return;
    const reply = fetcher.data;
    if (reply.ok) {
      const text = bulkResultText(reply.action, reply.done, reply.skipped.length);
      if (reply.skipped.length > 0) toast.error(text);
      else toast.success(text);
      setSkipped(reply.skipped);
    } else {
      toast.error("Error", { description: reply.error });
    }
  }, [fetcher.state, fetcher.data]);
  const submit = (action: BulkAction, ids: string[], category?: string) => {
    const form = new FormData();
    form.set("intent", "bulk");
    form.set("bulkAction", action);
    for (const id of ids) form.append("ids", id);
    if (category) form.set("category", category);
    return fetcher.submit(form, { method: "post" });
  };
  return { submit, busy: fetcher.state !== "idle", skipped };
}

/**
 * The admin's post list: a checkbox per post for the bulk actions above it (publish, unpublish, move to
 * a category, delete: each behind a confirmation), then title, state, category, dates, views (for statistics readers), View (or
 * Preview), Edit and, where this user may delete the post, Delete.
 */
export function AdminPostList({
  posts,
  empty,
  views = null,
}: {
  posts: AdminPostsView["posts"];
  empty: ReactNode;
  /** Each published post's views over the last 30 days, by post id (null: not shown to this user). */
  views?: Record<string, number> | null;
}) {
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const bulk = useBulkAction();
  // A new page (another filter, search or page) starts with nothing selected.
  const pageKey = posts.map((p) => p.id).join();
  useEffect(() => setSelected(new Set()), [pageKey]);
  const onPage = posts.filter((p) => selected.has(p.id));
  const allSelected = posts.length > 0 && onPage.length === posts.length;
  const toggle = (id: string, on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  // The result of an action that emptied the page (all its posts moved away) is still reported: this
  // component, and its result toast, stay mounted.
  const skippedList =
    bulk.skipped.length > 0 ? (
      <div role="status" className="mt-3 rounded-md border border-destructive/40 p-3 text-sm">
        <p className="font-medium">Not changed:</p>
        <ul className="mt-1 list-disc pl-5">
          {bulk.skipped.map((s, i) => (
            <li key={i}>
              {s.title}: {s.reason}
            </li>
          ))}
        </ul>
      </div>
    ) : null;
  if (posts.length === 0)
    return (
      <>
        {skippedList}
        {empty}
      </>
    );
  return (
    <div className="mt-6">
      <BulkBar
        count={onPage.length}
        allSelected={allSelected}
        onSelectAll={(on) => setSelected(on ? new Set(posts.map((p) => p.id)) : new Set())}
        busy={bulk.busy}
        onConfirm={(action, category) =>
          bulk.submit(
            action,
            onPage.map((p) => p.id),
            category,
          )
        }
      />
      {skippedList}
      <ul className="mt-3 divide-y rounded-lg border">
        {posts.map((p) => (
          <PostRow
            key={p.id}
            post={p}
            views={views?.[p.id]}
            checked={selected.has(p.id)}
            onCheck={(on) => toggle(p.id, on)}
            onDelete={() => bulk.submit("delete", [p.id])}
            busy={bulk.busy}
          />
        ))}
      </ul>
    </div>
  );
}

function BulkBar({
  count,
  allSelected,
  onSelectAll,
  onConfirm,
  busy,
}: {
  count: number;
  allSelected: boolean;
  onSelectAll: (on: boolean) => void;
  onConfirm: (action: BulkAction, category?: string) => Promise<void>;
  busy: boolean;
}) {
  const id = useId();
  const [action, setAction] = useState<BulkAction>("publish");
  const [category, setCategory] = useState<string>(CATEGORIES[0]);
  const [open, setOpen] = useState(false);
  const posts = `${count} selected ${count === 1 ? "post" : "posts"}`;
  const question = action === "move" ? `Move ${posts} to ${category}?` : `${ACTION_LABEL[action]} ${posts}?`;
  return (
    <div role="group" aria-label="Bulk actions" className="flex flex-wrap items-end gap-3 rounded-lg border p-3">
      <label className="flex h-9 items-center gap-2 text-sm">
        <input type="checkbox" className="size-4" checked={allSelected} onChange={(e) => onSelectAll(e.target.checked)} />
        Select all on this page
      </label>
      <div className="grid gap-1.5">
        <Label htmlFor={`${id}-action`}>With selected</Label>
        <select id={`${id}-action`} value={action} onChange={(e) => setAction(e.target.value as BulkAction)} className={SELECT_CLASS}>
          {BULK_ACTIONS.map((a) => (
            <option key={a} value={a}>
              {ACTION_LABEL[a]}
            </option>
          ))}
        </select>
      </div>
      {action === "move" ? (
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-category`}>Move to</Label>
          <select id={`${id}-category`} value={category} onChange={(e) => setCategory(e.target.value)} className={SELECT_CLASS}>
            {CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        trigger={
          <Button type="button" variant="outline" disabled={count === 0 || busy}>
            Apply to {count} selected
          </Button>
        }
        title={question}
        description={
          action === "delete"
            ? "This permanently deletes the posts and their media. This cannot be undone."
            : "Each post is saved as if edited: a post that breaks a rule (alt text to publish, who may change it) is left as it is and listed."
        }
        busy={busy}
      >
        <AlertDialogAction
          disabled={busy}
          className={action === "delete" ? "bg-destructive text-white hover:bg-destructive/90" : undefined}
          onClick={(e) => {
            e.preventDefault();
            void onConfirm(action, action === "move" ? category : undefined).then(() => setOpen(false));
          }}
        >
          {ACTION_LABEL[action]}
        </AlertDialogAction>
      </ConfirmDialog>
    </div>
  );
}

function PostRow({
  post: p,
  views,
  checked,
  onCheck,
  onDelete,
  busy,
}: {
  post: AdminPost;
  views: number | undefined;
  checked: boolean;
  onCheck: (on: boolean) => void;
  onDelete: () => Promise<void>;
  busy: boolean;
}) {
  const [open, setOpen] = useState(false);
  return (
    <li className="flex flex-wrap items-center gap-3 p-4">
      <input
        type="checkbox"
        className="size-4"
        aria-label={`Select ${p.title}`}
        checked={checked}
        onChange={(e) => onCheck(e.target.checked)}
      />
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-2">
          <h2 className="font-semibold [overflow-wrap:anywhere]">{p.title}</h2>
          <Badge variant={p.published ? "default" : p.scheduledFor ? "secondary" : "outline"}>
            {p.published ? "Published" : p.scheduledFor ? "Scheduled" : "Draft"}
          </Badge>
        </div>
        <p className="mt-1 text-sm text-muted-foreground">
          {p.category} · Updated <time dateTime={p.updatedAt}>{p.updated}</time>
          {p.scheduledFor && p.scheduledAt ? (
            <>
              {" "}
              · Publishes <time dateTime={p.scheduledAt}>{p.scheduledFor}</time>
            </>
          ) : null}
          {views !== undefined ? <span data-testid="post-views"> · {views === 1 ? "1 view" : `${views} views`} in 30 days</span> : null}
        </p>
      </div>
      <div className="flex gap-2">
        {/* The post page shows drafts and scheduled posts to staff only (getReadablePost). */}
        <Button asChild variant="ghost" size="sm">
          <Link to={postPath(p.category, p.slug)} aria-label={`${p.published ? "View" : "Preview"} ${p.title}`}>
            {p.published ? "View" : "Preview"}
          </Link>
        </Button>
        <Button asChild variant="outline" size="sm">
          <Link to={`${postPath(p.category, p.slug)}/edit`} aria-label={`Edit ${p.title}`}>
            Edit
          </Link>
        </Button>
        {p.canDelete ? (
          <ConfirmDialog
            open={open}
            onOpenChange={setOpen}
            trigger={
              <Button type="button" variant="ghost" size="sm" className="text-destructive" aria-label={`Delete ${p.title}`}>
                Delete
              </Button>
            }
            title="Delete this post?"
            description={`“${p.title}” and its media are deleted permanently. This cannot be undone.`}
            busy={busy}
          >
            <DestructiveAction busy={busy} onConfirm={() => void onDelete().then(() => setOpen(false))}>
              {busy ? "Deleting..." : "Delete"}
            </DestructiveAction>
          </ConfirmDialog>
        ) : null}
      </div>
    </li>
  );
}
