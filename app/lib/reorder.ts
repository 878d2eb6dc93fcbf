import { z } from "zod";

/** An up/down button's direction, as a form sends it. */
export const moveDirectionSchema = z.enum(["up", "down"], { message: "Direction must be up or down" });

/**
 * The list after moving `id` one place up or down (keyboard- and mouse-friendly reordering, as the
 * admin's up/down buttons do); null when it cannot move (first up, last down) or is not in the list.
 */
export function moveInList(ids: readonly string[], id: string, direction: "up" | "down"): string[] | null {
  const index = ids.indexOf(id);
  if (index === -1) return null;
  const target = direction === "up" ? index - 1 : index + 1;
  if (target < 0 || target >= ids.length) return null;
  const next = [...ids];
  next[index] = ids[target] ?? id;
  next[target] = id;
  return next;
}
