import { Pencil, Plus, Trash2 } from "lucide-react";
import type * as React from "react";
import { useEffect } from "react";
import { Form, Link } from "react-router";
import { toast } from "./toaster";
import { FormErrors, SubmitButton, useIsSubmitting } from "~/components/forms";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";

/** Toasts each failed action once, when a new failure arrives. */
export function useFailureToast(failure: { error: string } | undefined) {
  useEffect(() => {
    if (failure) toast.error("Error", { description: failure.error });
  }, [failure]);
}

/**
 * The live region where an admin page reports its last action: the done message, or the failure.
 * Always rendered (empty at first) so screen readers announce the text that appears in it.
 */
export function ActionStatus({ result }: { result: { ok: true; message: string } | { ok: false; error: string } | undefined }) {
  return (
    <div role="status" aria-live="polite" className="mt-4 min-h-6 text-sm">
      {result ? (
        <span className={result.ok ? "text-emerald-800 dark:text-emerald-300" : "text-destructive"}>
          {result.ok ? result.message : result.error}
        </span>
      ) : null}
    </div>
  );
}

/** An admin page listing ordered items: header with an Add link to `?new`, the optional form, then the list. */
export function AdminListPage({
  title,
  description,
  addLabel,
  form,
  empty,
  emptyText,
  listLabel,
  actions,
  children,
}: {
  title: string;
  description: string;
  addLabel: string;
  /** Whole-list actions shown beside the Add link (e.g. "Sort by date"). */
  actions?: React.ReactNode;
  /** The add/edit form, shown instead of the Add link when present. */
  form: React.ReactNode;
  empty: boolean;
  emptyText: string;
  listLabel: string;
  children: React.ReactNode;
}) {
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold">{title}</h1>
          <p className="mt-2 text-muted-foreground">{description}</p>
        </div>
        <div className="flex flex-wrap gap-2">
          {actions}
          {!form ? (
            <Button asChild>
              <Link to="?new">
                <Plus aria-hidden />
                {addLabel}
              </Link>
            </Button>
          ) : null}
        </div>
      </div>
      {form}
      {empty ? (
        <p className="text-muted-foreground">{emptyText}</p>
      ) : (
        <ol className="flex flex-col gap-3" aria-label={listLabel}>
          {children}
        </ol>
      )}
    </div>
  );
}

export function EditLink({ id, name }: { id: string; name: string }) {
  return (
    <Button asChild variant="outline" size="sm">
      <Link to={`?edit=${id}`} aria-label={`Edit ${name}`}>
        <Pencil aria-hidden />
        Edit
      </Link>
    </Button>
  );
}

/** Up and down buttons moving an item one place: reordering by keyboard (Tab, Enter) as well as by mouse. */
/** Delete button whose confirmation dialog posts `intent=delete` with the item's id. */
export function DeleteConfirm({
  id,
  name,
  title,
  description,
  confirmLabel,
}: {
  id: string;
  name: string;
  title: string;
  description: React.ReactNode;
  confirmLabel: string;
}) {
  const busy = useIsSubmitting({ intent: "delete", id });
  return (
    <ConfirmDialog
      trigger={
        <Button variant="destructive" size="sm" aria-label={`Delete ${name}`}>
          <Trash2 aria-hidden />
          Delete
        </Button>
      }
      title={title}
      description={description}
    >
      <Form method="post">
        <input type="hidden" name="intent" value="delete" />
        <input type="hidden" name="id" value={id} />
        <SubmitButton variant="destructive" pending={busy} pendingLabel="Deleting..." className="w-full">
          {confirmLabel}
        </SubmitButton>
      </Form>
    </ConfirmDialog>
  );
}

/** The add/edit form card: posts `intent=create`, or `intent=update` with the id when editing. */
export function FormCard({
  heading,
  form,
  failure,
  editId,
  submitLabel,
  cancelTo,
  children,
}: {
  heading: string;
  form: {
    id: string;
    noValidate: boolean;
    onSubmit: React.FormEventHandler<HTMLFormElement>;
    errors: string[] | undefined;
    errorId: string;
  };
  failure: { error: string } | undefined;
  editId: string | undefined;
  submitLabel: string;
  cancelTo: string;
  children: React.ReactNode;
}) {
  const intent = editId ? "update" : "create";
  const saving = useIsSubmitting({ intent });
  useFailureToast(failure);
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2 className="text-xl">{heading}</h2>
        </CardTitle>
      </CardHeader>
      <CardContent>
        <Form method="post" id={form.id} noValidate={form.noValidate} onSubmit={form.onSubmit} className="grid gap-4">
          <input type="hidden" name="intent" value={intent} />
          {editId ? <input type="hidden" name="id" value={editId} /> : null}
          <FormErrors form={form} />
          {children}
          <div className="flex gap-2">
            <SubmitButton pending={saving} pendingLabel="Saving...">
              {submitLabel}
            </SubmitButton>
            <Button asChild variant="outline">
              <Link to={cancelTo}>Cancel</Link>
            </Button>
          </div>
        </Form>
      </CardContent>
    </Card>
  );
}
