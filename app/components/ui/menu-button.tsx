import { ChevronDown } from "lucide-react";
import { useId, type ReactNode } from "react";
import { cn } from "~/lib/utils";
import { MENU_BUTTON_ATTRIBUTE } from "./menu-button-behavior";

/** Classes of an item inside a MenuButton (an <a> or <Link> with role="menuitem" and tabIndex -1). */
export const menuItemClass =
  "relative flex cursor-default items-center gap-2 rounded-sm px-2 py-1.5 text-sm outline-none select-none hover:bg-accent focus:bg-accent focus:text-accent-foreground";

/**
 * A button that opens a menu of links (the header's Services and 7Fs). Only the markup: the menu is
 * in the page, hidden, and menu-button-behavior.ts (the page's enhancement script, loaded with React
 * or without it) opens it and gives it the WAI-ARIA menu button keyboard model. Written for the
 * header instead of Radix's dropdown (~25 KB gzip with floating-ui): a header menu needs no
 * collision handling or portal, it opens under its button.
 */
export function MenuButton({
  label,
  children,
  align = "left",
  className,
}: {
  label: string;
  children: ReactNode;
  /** Which edge of the button the menu lines up with ("right" for a button at the end of a bar). */
  align?: "left" | "right";
  className?: string;
}) {
  const buttonId = useId();
  const menuId = useId();
  return (
    <div className={cn("relative", className)}>
      <button
        id={buttonId}
        type="button"
        aria-haspopup="menu"
        aria-expanded={false}
        aria-controls={menuId}
        data-state="closed"
        {...{ [MENU_BUTTON_ATTRIBUTE]: "" }}
        className="inline-flex items-center gap-1 rounded-sm px-1 py-1 hover:text-primary focus-visible:outline-2 focus-visible:outline-offset-2 data-[state=open]:text-primary"
      >
        {label}
        <ChevronDown aria-hidden className="size-4" />
      </button>
      {/* Keys reach the menu from its focused items; the menu itself is not a stop in the tab order. */}
      <div
        id={menuId}
        role="menu"
        aria-labelledby={buttonId}
        hidden
        className={cn(
          "absolute top-full z-50 mt-1 min-w-[8rem] overflow-hidden rounded-md border bg-popover p-1 text-popover-foreground shadow-md",
          align === "right" ? "right-0" : "left-0",
        )}
      >
        {children}
      </div>
    </div>
  );
}
