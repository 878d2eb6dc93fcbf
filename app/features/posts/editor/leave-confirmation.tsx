import type { Blocker } from "react-router";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { AlertDialogAction } from "~/components/ui/alert-dialog";

/** Asks before an in-app navigation leaves the editor with unsaved changes (closing the tab: beforeunload). */
export function LeaveConfirmation({ blocker }: { blocker: Blocker }) {
  return (
    <ConfirmDialog
      open={blocker.state === "blocked"}
      onOpenChange={(open) => !open && blocker.state === "blocked" && blocker.reset()}
      title="Leave without saving?"
      description="You have unsaved changes. Leave this page and lose them?"
      cancelLabel="Stay"
    >
      <AlertDialogAction onClick={() => blocker.state === "blocked" && blocker.proceed()}>Leave</AlertDialogAction>
    </ConfirmDialog>
  );
}
