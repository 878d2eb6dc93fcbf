import type * as React from "react";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "~/components/ui/alert-dialog";

/**
 * The one confirmation dialog: a question (`title`), what confirming does (`description`, with any
 * list of what it affects in `details`), a way out
 * (`cancelLabel`) and the confirming control (`children`: a form's submit button or an action). Opened
 * by `trigger`, or controlled through `open`/`onOpenChange`.
 */
export function ConfirmDialog({
  trigger,
  open,
  onOpenChange,
  title,
  description,
  details,
  cancelLabel = "Cancel",
  busy = false,
  children,
}: {
  trigger?: React.ReactNode;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  title: React.ReactNode;
  description: React.ReactNode;
  /** Block content below the description (a list of what confirming affects). */
  details?: React.ReactNode;
  cancelLabel?: React.ReactNode;
  /** While the confirmed work runs: Cancel and Escape do nothing. */
  busy?: boolean;
  children: React.ReactNode;
}) {
  return (
    <AlertDialog open={open} onOpenChange={onOpenChange}>
      {trigger ? <AlertDialogTrigger asChild>{trigger}</AlertDialogTrigger> : null}
      <AlertDialogContent onEscapeKeyDown={(event) => busy && event.preventDefault()}>
        <AlertDialogHeader>
          <AlertDialogTitle>{title}</AlertDialogTitle>
          <AlertDialogDescription>{description}</AlertDialogDescription>
        </AlertDialogHeader>
        {details}
        <AlertDialogFooter>
          <AlertDialogCancel disabled={busy}>{cancelLabel}</AlertDialogCancel>
          {children}
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

/** The confirming control of a destructive ConfirmDialog: red, disabled while the work runs, never closing the dialog itself. */
export function DestructiveAction({ busy, onConfirm, children }: { busy: boolean; onConfirm: () => void; children: React.ReactNode }) {
  return (
    <AlertDialogAction
      disabled={busy}
      className="bg-destructive text-white hover:bg-destructive/90"
      onClick={(e) => {
        e.preventDefault();
        onConfirm();
      }}
    >
      {children}
    </AlertDialogAction>
  );
}
