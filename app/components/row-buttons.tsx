import { ArrowDown, ArrowUp, Trash2 } from "lucide-react";
import type * as React from "react";
import { Button } from "~/components/ui/button";

export type RowAction = "up" | "down" | "remove";

/**
 * Move up / Move down / Remove for one row of an ordered list the owner edits (menus, links). What a
 * button does comes from `actionProps`: a click handler for lists kept in state, or a form's submit
 * props (name and value) for lists that also work without JavaScript. Each button is named after the
 * row ("Move Social link 2 (GitHub) up"); the move buttons carry `data-move` for focusMovedRow.
 */
export function RowButtons({
  id,
  name,
  index,
  count,
  actionProps,
}: {
  id: string;
  name: string;
  index: number;
  count: number;
  actionProps: (action: RowAction) => React.ComponentProps<"button">;
}) {
  return (
    <div className="flex gap-1">
      <MoveButtons
        name={name}
        first={index === 0}
        last={index === count - 1}
        buttonProps={(direction) => ({ ...actionProps(direction), "data-move": `${id}-${direction}` }) as React.ComponentProps<"button">}
      />
      <Button type="button" variant="outline" size="sm" {...actionProps("remove")} aria-label={`Remove ${name}`}>
        <Trash2 aria-hidden />
      </Button>
    </div>
  );
}

/**
 * The pair of "Move {name} up" / "Move {name} down" buttons every ordered admin list uses; the first
 * row cannot go up and the last cannot go down. `buttonProps` gives each its click handler or form
 * submit props (and `disabled` while a move is saving).
 */
export function MoveButtons({
  name,
  first,
  last,
  buttonProps,
}: {
  name: string;
  first: boolean;
  last: boolean;
  buttonProps: (direction: "up" | "down") => React.ComponentProps<"button">;
}) {
  const up = buttonProps("up");
  const down = buttonProps("down");
  return (
    <>
      <Button type="button" variant="outline" size="sm" {...up} disabled={first || up.disabled} aria-label={`Move ${name} up`}>
        <ArrowUp aria-hidden />
      </Button>
      <Button type="button" variant="outline" size="sm" {...down} disabled={last || down.disabled} aria-label={`Move ${name} down`}>
        <ArrowDown aria-hidden />
      </Button>
    </>
  );
}

/**
 * After the row `id` moved, the focus goes back to its button for the same direction (or its other
 * move button once it reached an end), on the next frame, when the list is drawn in its new order.
 */
export function focusMovedRow(id: string, direction: "up" | "down"): void {
  requestAnimationFrame(() => {
    const button = document.querySelector<HTMLButtonElement>(`[data-move="${id}-${direction}"]`);
    const other = document.querySelector<HTMLButtonElement>(`[data-move="${id}-${direction === "up" ? "down" : "up"}"]`);
    (button && !button.disabled ? button : other)?.focus();
  });
}
