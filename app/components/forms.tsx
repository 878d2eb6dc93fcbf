import { INTENT } from "@conform-to/dom";
import { useForm, type FieldMetadata, type FormMetadata, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint } from "@conform-to/zod/v4";
import type * as React from "react";
import { useActionData, useNavigation } from "react-router";
import type { z } from "zod";
import { Button } from "~/components/ui/button";
import { Label } from "~/components/ui/label";
import { errorIdOf } from "~/lib/dom";
import { parseSubmission, type FormFailure } from "~/lib/forms";
import { cn } from "~/lib/utils";

/** Schemas are module constants: their constraints are worked out once, not on every render. */
const constraints = new WeakMap<z.ZodType, ReturnType<typeof getZodConstraint>>();
function constraintOf(schema: z.ZodType): ReturnType<typeof getZodConstraint> {
  let constraint = constraints.get(schema);
  if (!constraint) {
    constraint = getZodConstraint(schema);
    constraints.set(schema, constraint);
  }
  return constraint;
}

/**
 * The one way a form is wired: Conform with the shared zod schema. The browser checks a
 * field when it loses focus and re-checks it on every keystroke once checked, so an error clears as
 * soon as the field is valid; the server's reply (`lastResult`) lands in the same place, with the
 * same messages, and is rendered on the server too, so a form works without JavaScript.
 */
export function useSchemaForm<Schema extends z.ZodType<Record<string, unknown>, Record<string, unknown>>>({
  id,
  schema,
  lastResult,
  defaultValue,
  shouldValidate = "onBlur",
  onSubmit,
}: {
  id: string;
  schema: Schema;
  lastResult?: SubmissionResult<string[]> | null;
  defaultValue?: Parameters<typeof useForm<z.input<Schema>, z.output<Schema>>>[0]["defaultValue"];
  shouldValidate?: "onSubmit" | "onBlur";
  onSubmit?: Parameters<typeof useForm<z.input<Schema>, z.output<Schema>>>[0]["onSubmit"];
}) {
  return useForm<z.input<Schema>, z.output<Schema>>({
    id,
    lastResult,
    defaultValue,
    constraint: constraintOf(schema),
    shouldValidate,
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseSubmission(formData, schema),
    onSubmit,
  });
}

/**
 * Whether a submit event is Conform at work rather than the person sending the form: it checks a
 * field that lost focus (and changes lists) by submitting the form with its own intent button, and
 * stops that submission itself. A form's own onSubmit steps (a missing verification, an error toast)
 * belong to real submissions only.
 */
export function isFormIntent(event: React.FormEvent<HTMLFormElement>): boolean {
  const native = event.nativeEvent;
  const submitter = "submitter" in native && native.submitter instanceof HTMLElement ? native.submitter : null;
  return submitter?.getAttribute("name") === INTENT;
}

/** Props every form control gets from its field: name, label link, error state and description. */
export interface ControlProps {
  id: string;
  name: string;
  defaultValue?: string;
  required?: boolean;
  "aria-invalid"?: true;
  "aria-describedby"?: string;
}

export { errorIdOf };

type AnyField = FieldMetadata<unknown>;

/**
 * The control's props. `id` defaults to `<form id>-<field name>` (stable, readable in tests);
 * `controlled` leaves out defaultValue for inputs whose value the component keeps in state;
 * `select` leaves out `required` (a select always sends one of its options, and HTML forbids
 * `required` on one whose first option has a value).
 */
export function controlProps(
  field: AnyField,
  { id, controlled = false, select = false }: { id?: string; controlled?: boolean; select?: boolean } = {},
): ControlProps {
  const controlId = id ?? `${field.formId}-${field.name}`;
  const invalid = Boolean(field.errors?.length);
  return {
    id: controlId,
    name: field.name,
    ...(controlled ? {} : { defaultValue: field.initialValue === undefined ? undefined : String(field.initialValue) }),
    // Length limits stay out of the markup: `maxLength` would cut text silently instead of saying why.
    ...(field.required && !select ? { required: true } : {}),
    ...(invalid ? { "aria-invalid": true, "aria-describedby": errorIdOf(controlId) } : {}),
  };
}

/** The first message of a field, in the one error style; nothing when the field is valid. */
export function FieldError({ id, errors, className }: { id: string; errors: string[] | undefined; className?: string }) {
  const message = errors?.[0];
  if (!message) return null;
  return (
    <p id={id} role="alert" className={cn("text-sm font-medium text-destructive", className)}>
      {message}
    </p>
  );
}

/** Label, control and error for one field. */
export function FormField({
  field,
  label,
  id,
  controlled,
  select,
  hint,
  className,
  children,
}: {
  field: AnyField;
  label: React.ReactNode;
  id?: string;
  controlled?: boolean;
  select?: boolean;
  hint?: React.ReactNode;
  className?: string;
  children: (props: ControlProps) => React.ReactNode;
}) {
  const props = controlProps(field, { id, controlled, select });
  return (
    // A new key after a reset or a server reply remounts the control with its new default value.
    <div key={field.key} className={cn("grid gap-2", className)}>
      <Label htmlFor={props.id}>{label}</Label>
      {children(props)}
      {hint}
      <FieldError id={errorIdOf(props.id)} errors={field.errors} />
    </div>
  );
}

/**
 * A checkbox of a schema form with its label beside it and its error below. The default comes from
 * the saved value; a new field key (after a server reply) remounts it.
 */
export function CheckboxField({
  field,
  id,
  label,
  defaultChecked,
}: {
  field: Pick<AnyField, "name" | "key" | "errors">;
  id: string;
  label: React.ReactNode;
  defaultChecked: boolean;
}) {
  return (
    <>
      <div className="flex items-center gap-3">
        <input
          type="checkbox"
          id={id}
          name={field.name}
          defaultChecked={defaultChecked}
          key={field.key}
          className="size-4 accent-primary"
        />
        <label htmlFor={id} className="text-sm font-medium">
          {label}
        </label>
      </div>
      <FieldError id={errorIdOf(id)} errors={field.errors} />
    </>
  );
}

/** Errors that belong to the whole form (e.g. "This project no longer exists."). */
export function FormErrors({ form, className }: { form: Pick<FormMetadata, "errors" | "errorId">; className?: string }) {
  const message = form.errors?.[0];
  if (!message) return null;
  return (
    <p
      id={form.errorId}
      role="alert"
      className={cn("rounded-md border border-destructive/40 bg-destructive/10 p-3 text-sm text-destructive", className)}
    >
      {message}
    </p>
  );
}

/**
 * Whether this page is submitting a form (optionally: only the one with this `intent`, or for this
 * record `id`). The one pending-state rule for navigation forms; fetcher forms pass
 * `fetcher.state !== "idle"`.
 */
export function useIsSubmitting({ intent, id }: { intent?: string; id?: string } = {}): boolean {
  const navigation = useNavigation();
  if (navigation.state === "idle" || navigation.formMethod === undefined) return false;
  if (intent !== undefined && navigation.formData?.get("intent") !== intent) return false;
  return id === undefined || navigation.formData?.get("id") === id;
}

/**
 * The page action's failure when it belongs to the form that posts `intent` (no intent: the page's form
 * without one). A page with several forms shows each failure under its own form only.
 */
export function useFormFailure(intent?: string): FormFailure | undefined {
  const actionData = useActionData<FormFailure | undefined>();
  if (!actionData || actionData.ok) return undefined;
  const posted = actionData.result?.initialValue?.intent;
  return (intent === undefined ? !posted : posted === intent) ? actionData : undefined;
}

/** A submit button that is disabled and says so while its form is being sent. */
export function SubmitButton({
  pending,
  pendingLabel,
  disabled,
  children,
  ...props
}: React.ComponentProps<typeof Button> & { pending: boolean; pendingLabel: React.ReactNode }) {
  return (
    <Button type="submit" disabled={pending || disabled} {...props}>
      {pending ? pendingLabel : children}
    </Button>
  );
}
