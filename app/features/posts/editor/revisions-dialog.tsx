import { diffWords } from "diff";
import { formatDistanceToNow } from "date-fns";
import { useState } from "react";
import { z } from "zod";
import { Button } from "~/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from "~/components/ui/dialog";
import { cn } from "~/lib/utils";

const revisionSchema = z.object({
  id: z.string(),
  kind: z.enum(["save", "publish", "unpublish", "schedule"]),
  title: z.string(),
  excerpt: z.string().nullable(),
  content: z.string(),
  featuredImageUrl: z.string().nullable(),
  featuredImageAlt: z.string().nullable().optional(),
  authorEmail: z.string().nullable(),
  createdAt: z.iso.datetime(),
});
const answerSchema = z.object({ revisions: z.array(revisionSchema) });

export type Revision = z.infer<typeof revisionSchema>;

const KIND_LABEL: Record<Revision["kind"], string> = {
  save: "Saved",
  publish: "Published",
  unpublish: "Unpublished",
  schedule: "Scheduled",
};

interface Props {
  postId: string;
  /** Where the revisions are read (the posts' API unless another editor names its own). */
  url?: string;
  /** The text in the editor now: each revision is compared with it. */
  current: { title: string; content: string };
  /** Loads the revision into the form (it is saved only when the author saves). */
  onRestore: (revision: Revision) => void;
}

/** Word-level differences from the revision to the current text: removed words struck, added words marked. */
function WordDiff({ from, to }: { from: string; to: string }) {
  const parts = diffWords(from, to);
  if (parts.every((p) => !p.added && !p.removed)) return <p className="text-sm text-muted-foreground">Same as the current text.</p>;
  return (
    <div className="max-h-72 overflow-auto rounded border p-3 text-sm whitespace-pre-wrap" data-testid="revision-diff">
      {parts.map((part, i) =>
        part.added ? (
          <ins key={i} className="bg-green-100 text-green-900 no-underline dark:bg-green-900/40 dark:text-green-100">
            {part.value}
          </ins>
        ) : part.removed ? (
          <del key={i} className="bg-red-100 text-red-900 dark:bg-red-900/40 dark:text-red-100">
            {part.value}
          </del>
        ) : (
          <span key={i}>{part.value}</span>
        ),
      )}
    </div>
  );
}

/** 'Revisions': the post's saved versions, newest first, each with its diff against the editor's text. */
export function RevisionsDialog({ postId, url = `/api/posts/${postId}/revisions`, current, onRestore }: Props) {
  const [open, setOpen] = useState(false);
  const [revisions, setRevisions] = useState<Revision[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [selected, setSelected] = useState<string | null>(null);

  async function load() {
    setError(null);
    try {
      const response = await fetch(url, { headers: { Accept: "application/json" } });
      const parsed = answerSchema.safeParse(await response.json().catch(() => null));
      if (!response.ok || !parsed.success) throw new Error(`The server answered ${response.status}.`);
      setRevisions(parsed.data.revisions);
      setSelected(parsed.data.revisions[0]?.id ?? null);
    } catch (e) {
      setError(e instanceof Error ? e.message : "The revisions could not be loaded.");
    }
  }

  const chosen = revisions?.find((r) => r.id === selected) ?? null;
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) void load();
      }}
    >
      <DialogTrigger asChild>
        <Button type="button" variant="outline">
          Revisions
        </Button>
      </DialogTrigger>
      <DialogContent className="max-h-[90vh] overflow-auto sm:max-w-3xl">
        <DialogHeader>
          <DialogTitle>Revisions</DialogTitle>
          <DialogDescription>
            Newest first. Restoring a revision puts it in the editor; it is saved when you save the post.
          </DialogDescription>
        </DialogHeader>
        {error ? (
          <p role="alert" className="text-sm text-destructive">
            {error}
          </p>
        ) : revisions === null ? (
          <p role="status">Loading revisions...</p>
        ) : revisions.length === 0 ? (
          <p>No revisions yet.</p>
        ) : (
          <div className="grid gap-4 md:grid-cols-[14rem_1fr]">
            <ol className="space-y-1" aria-label="Revisions, newest first">
              {revisions.map((r) => (
                <li key={r.id}>
                  <button
                    type="button"
                    aria-pressed={r.id === selected}
                    onClick={() => setSelected(r.id)}
                    className={cn(
                      "w-full rounded border px-2 py-1.5 text-left text-sm",
                      r.id === selected ? "border-primary bg-accent" : "hover:bg-accent",
                    )}
                  >
                    <span className="block font-medium">
                      {KIND_LABEL[r.kind]}{" "}
                      <time dateTime={r.createdAt}>{formatDistanceToNow(new Date(r.createdAt), { addSuffix: true })}</time>
                    </span>
                    <span className="block truncate text-muted-foreground">{r.authorEmail ?? "Deleted user"}</span>
                  </button>
                </li>
              ))}
            </ol>
            {chosen ? (
              <section aria-label="Changes from this revision to the current text" className="min-w-0 space-y-3">
                <h3 className="font-semibold [overflow-wrap:anywhere]">{chosen.title}</h3>
                {chosen.title !== current.title ? <WordDiff from={chosen.title} to={current.title} /> : null}
                <WordDiff from={chosen.content} to={current.content} />
                <Button
                  type="button"
                  onClick={() => {
                    onRestore(chosen);
                    setOpen(false);
                  }}
                >
                  Restore this revision
                </Button>
              </section>
            ) : null}
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}
