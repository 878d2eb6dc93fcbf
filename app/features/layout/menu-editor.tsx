import { ArrowDown, ArrowUp, Trash2 } from "lucide-react";
import { useId, useState } from "react";
import { Form, useActionData } from "react-router";
import { useFailureToast } from "~/components/admin-list";
import { useIsSubmitting, SubmitButton } from "~/components/forms";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import type { FormFailure } from "~/lib/forms";
import { moveInList } from "~/lib/reorder";
import { BUILT_IN_ITEMS, type BuiltInKind, type MenuItem, type SiteMenus } from "./menus";
import { MENU_LIMITS } from "./menus-schema";

/** The editor's intents: save both menus, or put both back to the defaults. */
export const MENUS_INTENT = { save: "save", reset: "reset" } as const;

type Row = MenuItem & { id: string };
type Column = { id: string; title: string; items: Row[] };

// Rows drawn from the stored menus get ids by place (the same on the server and in the browser); rows added later, new ones.
let nextId = 0;
const newId = () => `menu-new-${++nextId}`;
const withIds = (items: readonly MenuItem[], prefix: string): Row[] => items.map((item, index) => ({ ...item, id: `${prefix}-${index}` }));
const withoutIds = (rows: readonly Row[]): MenuItem[] =>
  rows.map(({ id: _id, ...item }) => (item.kind === "link" ? { kind: "link", label: item.label, href: item.href } : item));

/** Moves the row with `id` in `list` one place; the focus stays on the moved row's button (or its other one at an end). */
function moved<T extends { id: string }>(list: readonly T[], id: string, direction: "up" | "down"): T[] {
  const order = moveInList(
    list.map((row) => row.id),
    id,
    direction,
  );
  if (!order) return [...list];
  requestAnimationFrame(() => {
    const button = document.querySelector<HTMLButtonElement>(`[data-move="${id}-${direction}"]`);
    const other = document.querySelector<HTMLButtonElement>(`[data-move="${id}-${direction === "up" ? "down" : "up"}"]`);
    (button && !button.disabled ? button : other)?.focus();
  });
  return order.map((rowId) => list.find((row) => row.id === rowId) as T);
}

function RowButtons({
  id,
  name,
  index,
  count,
  onMove,
  onRemove,
}: {
  id: string;
  name: string;
  index: number;
  count: number;
  onMove: (direction: "up" | "down") => void;
  onRemove: () => void;
}) {
  return (
    <div className="flex gap-1">
      <Button
        type="button"
        variant="outline"
        size="sm"
        disabled={index === 0}
        onClick={() => onMove("up")}
        aria-label={`Move ${name} up`}
        data-move={`${id}-up`}
      >
        <ArrowUp aria-hidden />
      </Button>
      <Button
        type="button"
        variant="outline"
        size="sm"
        disabled={index === count - 1}
        onClick={() => onMove("down")}
        aria-label={`Move ${name} down`}
        data-move={`${id}-down`}
      >
        <ArrowDown aria-hidden />
      </Button>
      <Button type="button" variant="outline" size="sm" onClick={onRemove} aria-label={`Remove ${name}`}>
        <Trash2 aria-hidden />
      </Button>
    </div>
  );
}

/** One ordered list of items: a label and an address per link, a label per built-in item; add, move, remove. */
function ItemList({ name, rows, max, onChange }: { name: string; rows: Row[]; max: number; onChange: (rows: Row[]) => void }) {
  const [builtIn, setBuiltIn] = useState<BuiltInKind>("newsletter");
  const update = (id: string, change: Partial<{ label: string; href: string }>) =>
    onChange(rows.map((row) => (row.id === id ? ({ ...row, ...change } as Row) : row)));
  const selectId = useId();
  return (
    <div className="grid gap-3">
      {rows.length === 0 ? <p className="text-sm text-muted-foreground">No items.</p> : null}
      <ol aria-label={`${name} items`} className="grid gap-3">
        {rows.map((row, index) => {
          const itemName = `${name} item ${index + 1} (${row.label || "no label"})`;
          return (
            <li key={row.id} className="grid gap-2 rounded-md border p-3 sm:grid-cols-[1fr_1fr_auto] sm:items-end">
              <div className="grid gap-1">
                <Label htmlFor={`${row.id}-label`}>Label</Label>
                <Input
                  id={`${row.id}-label`}
                  value={row.label}
                  maxLength={MENU_LIMITS.label}
                  onChange={(e) => update(row.id, { label: e.target.value })}
                />
              </div>
              {row.kind === "link" ? (
                <div className="grid gap-1">
                  <Label htmlFor={`${row.id}-href`}>Address</Label>
                  <Input
                    id={`${row.id}-href`}
                    value={row.href}
                    placeholder="/about or https://…"
                    maxLength={MENU_LIMITS.href}
                    onChange={(e) => update(row.id, { href: e.target.value })}
                  />
                </div>
              ) : (
                <p className="text-sm text-muted-foreground">{BUILT_IN_ITEMS[row.kind].description}</p>
              )}
              <RowButtons
                id={row.id}
                name={itemName}
                index={index}
                count={rows.length}
                onMove={(direction) => onChange(moved(rows, row.id, direction))}
                onRemove={() => onChange(rows.filter((other) => other.id !== row.id))}
              />
            </li>
          );
        })}
      </ol>
      <div className="flex flex-wrap items-end gap-2">
        <Button
          type="button"
          variant="outline"
          disabled={rows.length >= max}
          onClick={() => onChange([...rows, { kind: "link", label: "", href: "", id: newId() }])}
        >
          Add link to {name}
        </Button>
        <div className="grid gap-1">
          <Label htmlFor={selectId}>Built-in item</Label>
          <select
            id={selectId}
            value={builtIn}
            onChange={(e) => setBuiltIn(e.target.value as BuiltInKind)}
            className="h-9 rounded-md border bg-background px-2 text-sm"
          >
            {(Object.keys(BUILT_IN_ITEMS) as BuiltInKind[]).map((kind) => (
              <option key={kind} value={kind}>
                {BUILT_IN_ITEMS[kind].label}
              </option>
            ))}
          </select>
        </div>
        <Button
          type="button"
          variant="outline"
          disabled={rows.length >= max}
          onClick={() => onChange([...rows, { kind: builtIn, label: BUILT_IN_ITEMS[builtIn].label, id: newId() }])}
        >
          Add built-in item to {name}
        </Button>
      </div>
    </div>
  );
}

/** The header menu and the footer's columns, edited as ordered lists and saved together. */
export function MenuEditor({ menus, isDefault }: { menus: SiteMenus; isDefault: boolean }) {
  const actionData = useActionData<FormFailure>();
  const failure = actionData && !actionData.ok ? actionData : undefined;
  useFailureToast(failure);
  const saving = useIsSubmitting();
  const [header, setHeader] = useState(() => withIds(menus.header, "menu-header"));
  const [footer, setFooter] = useState<Column[]>(() =>
    menus.footer.map((column, index) => ({
      id: `menu-column-${index}`,
      title: column.title,
      items: withIds(column.items, `menu-column-${index}`),
    })),
  );
  const value: SiteMenus = {
    header: withoutIds(header),
    footer: footer.map((column) => ({ title: column.title, items: withoutIds(column.items) })),
  };
  const updateColumn = (id: string, change: Partial<Column>) =>
    setFooter(footer.map((column) => (column.id === id ? { ...column, ...change } : column)));
  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="text-2xl font-bold">Menus</h1>
        <p className="mt-2 text-muted-foreground">
          The header menu and the footer&apos;s columns. A link goes to a page of this site (an address starting with /) or to another site
          (https://). Built-in items follow Settings. {isDefault ? "These are the default menus." : null}
        </p>
      </div>
      <Form method="post" className="flex flex-col gap-6">
        <input type="hidden" name="intent" value={MENUS_INTENT.save} />
        <input type="hidden" name="menus" value={JSON.stringify(value)} />
        {failure ? (
          <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/10 p-3 text-sm text-destructive">
            {failure.error}
          </p>
        ) : null}
        <Card>
          <CardHeader>
            <CardTitle>
              <h2 className="text-xl">Header menu</h2>
            </CardTitle>
          </CardHeader>
          <CardContent>
            <ItemList name="Header menu" rows={header} max={MENU_LIMITS.headerItems} onChange={setHeader} />
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>
              <h2 className="text-xl">Footer columns</h2>
            </CardTitle>
          </CardHeader>
          <CardContent className="grid gap-6">
            {footer.map((column, index) => {
              const name = `Footer column ${index + 1}`;
              return (
                <section key={column.id} aria-label={name} className="grid gap-3 rounded-md border p-4">
                  <div className="flex flex-wrap items-end justify-between gap-2">
                    <div className="grid gap-1">
                      <Label htmlFor={`${column.id}-title`}>{name}: title</Label>
                      <Input
                        id={`${column.id}-title`}
                        value={column.title}
                        maxLength={MENU_LIMITS.label}
                        onChange={(e) => updateColumn(column.id, { title: e.target.value })}
                      />
                    </div>
                    <RowButtons
                      id={column.id}
                      name={`${name} (${column.title || "no title"})`}
                      index={index}
                      count={footer.length}
                      onMove={(direction) => setFooter(moved(footer, column.id, direction))}
                      onRemove={() => setFooter(footer.filter((other) => other.id !== column.id))}
                    />
                  </div>
                  <ItemList
                    name={name}
                    rows={column.items}
                    max={MENU_LIMITS.columnItems}
                    onChange={(items) => updateColumn(column.id, { items })}
                  />
                </section>
              );
            })}
            <Button
              type="button"
              variant="outline"
              className="w-fit"
              disabled={footer.length >= MENU_LIMITS.columns}
              onClick={() => setFooter([...footer, { id: newId(), title: "", items: [] }])}
            >
              Add footer column
            </Button>
          </CardContent>
        </Card>
        <SubmitButton pending={saving} pendingLabel="Saving..." className="w-fit">
          Save menus
        </SubmitButton>
      </Form>
      <Form method="post">
        <input type="hidden" name="intent" value={MENUS_INTENT.reset} />
        <Button type="submit" variant="outline" disabled={isDefault}>
          Reset menus to default
        </Button>
      </Form>
    </div>
  );
}
