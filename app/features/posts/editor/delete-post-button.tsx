import { useEffect, useState } from "react";
import { useFetcher } from "react-router";
import { toast } from "~/components/toaster";
import { ConfirmDialog, DestructiveAction } from "~/components/confirm-dialog";
import { Button } from "~/components/ui/button";

/** The post page's Delete, behind a confirmation; posts to the page's own action. */
export function DeletePostButton() {
  const fetcher = useFetcher<{ error: string }>();
  const [open, setOpen] = useState(false);
  const busy = fetcher.state !== "idle";
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.error) {
      toast.error("Error", { description: "Failed to delete post" });
      setOpen(false);
    }
  }, [fetcher.state, fetcher.data]);
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={setOpen}
      trigger={<Button variant="destructive">Delete</Button>}
      title="Delete this post?"
      description="This permanently deletes the post and its media. This cannot be undone."
      busy={busy}
    >
      <DestructiveAction busy={busy} onConfirm={() => void fetcher.submit({ intent: "delete" }, { method: "post" })}>
        {busy ? "Deleting..." : "Delete"}
      </DestructiveAction>
    </ConfirmDialog>
  );
}
