import type { FieldMetadata, FormMetadata } from "@conform-to/react";
import { useId } from "react";
import { FieldError, FormField } from "~/components/forms";
import { focusMovedRow, RowButtons, type RowAction } from "~/components/row-buttons";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { errorIdOf } from "~/lib/dom";
import { SETTINGS_LIMITS } from "./settings-schema";

type LinkRow = { label?: string; url?: string };
type ListForm = Pick<FormMetadata<Record<string, unknown>, string[]>, "insert" | "remove" | "reorder">;

/**
 * One list of the settings' links (social, services) as rows: a label and an address each, ↑/↓,
 * Remove and "Add link". The buttons are the form's own list intents: with JavaScript the rows change
 * in place; without it the form goes to the server and comes back with the rows changed, unsaved.
 */
export function LinkRows({
  form,
  field,
  title,
  itemName,
  hint,
}: {
  form: ListForm;
  field: FieldMetadata<LinkRow[] | undefined, Record<string, unknown>, string[]>;
  title: string;
  /** One row, as its buttons name it ("Social link 2 (GitHub)"). */
  itemName: string;
  hint: string;
}) {
  const rows = field.getFieldList();
  const hintId = useId();
  const listId = useId();
  const buttonsFor = (index: number, key: string) => (action: RowAction) => {
    // Submit buttons: the form's list intent is the button's own value.
    if (action === "remove") return { type: "submit" as const, ...form.remove.getButtonProps({ name: field.name, index }) };
    const to = action === "up" ? index - 1 : index + 1;
    return {
      type: "submit" as const,
      ...form.reorder.getButtonProps({ name: field.name, from: index, to }),
      onClick: () => focusMovedRow(key, action),
    };
  };
  return (
    <fieldset className="grid gap-3" aria-describedby={hintId}>
      <legend className="mb-2 text-sm leading-none font-medium">{title}</legend>
      <p id={hintId} className="text-sm text-muted-foreground">
        {hint}
      </p>
      {rows.length === 0 ? <p className="text-sm text-muted-foreground">No links.</p> : null}
      <ol id={listId} aria-label={title} className="grid gap-3">
        {rows.map((row, index) => {
          const link = row.getFieldset();
          // A row added by a form post (no JavaScript) has no key from the browser yet: its place stands in.
          const key = row.key ?? `${field.name}-${index}`;
          const name = `${itemName} ${index + 1} (${link.label.value || "no label"})`;
          return (
            <li key={key} className="rounded-md border p-3">
              <fieldset className="grid gap-2 sm:grid-cols-[1fr_2fr_auto] sm:items-start">
                <legend className="sr-only">{`${itemName} ${index + 1}`}</legend>
                <FormField field={link.label} label="Label">
                  {(props) => <Input {...props} />}
                </FormField>
                <FormField field={link.url} label="Address">
                  {(props) => <Input {...props} type="text" inputMode="url" placeholder="https://… or mailto:…" />}
                </FormField>
                <div className="sm:pt-6">
                  <RowButtons id={key} name={name} index={index} count={rows.length} actionProps={buttonsFor(index, key)} />
                </div>
              </fieldset>
            </li>
          );
        })}
      </ol>
      <FieldError id={errorIdOf(field.id)} errors={field.errors} />
      <Button
        type="submit"
        variant="outline"
        className="w-fit"
        disabled={rows.length >= SETTINGS_LIMITS.links}
        {...form.insert.getButtonProps({ name: field.name, defaultValue: { label: "", url: "" } })}
        onClick={() =>
          requestAnimationFrame(() => document.querySelector<HTMLInputElement>(`[id="${listId}"] > li:last-child input`)?.focus())
        }
      >
        Add link
      </Button>
    </fieldset>
  );
}
