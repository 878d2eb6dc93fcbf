import { ChevronDown } from "lucide-react";
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from "react";

/** Classes of an item inside a MenuButton (an <a> or <Link> with role="menuitem" and tabIndex -1). */
export const menuItemClass =
  "relative flex cursor-default items-center gap-2 rounded-sm px-2 py-1.5 text-sm outline-none select-none hover:bg-accent focus:bg-accent focus:text-accent-foreground";

const ITEM = '[role="menuitem"]';

/**
 * A button that opens a menu of links, with the WAI-ARIA menu button keyboard model: Enter, Space or
 * ArrowDown open it on the first item (ArrowUp on the last), arrows/Home/End move between items,
 * Escape closes it and returns to the button, Tab closes it and moves on; a click outside closes it.
 * Written for the header instead of Radix's dropdown (with floating-ui and its focus/scroll guards),
 * which was ~25 KB gzip in every public page's first JavaScript: a header menu needs no collision
 * handling or portal, it opens under its button.
 */
export function MenuButton({ label, children }: { label: string; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const firstFocus = useRef(0);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const buttonId = useId();
  const menuId = useId();

  const items = () => [...(menuRef.current?.querySelectorAll<HTMLElement>(ITEM) ?? [])];
  const openAt = (index: number) => {
    firstFocus.current = index;
    setOpen(true);
  };

  useEffect(() => {
    if (!open) return;
    items().at(firstFocus.current)?.focus();
    const closeOutside = (event: PointerEvent) => {
      const target = event.target instanceof Node ? event.target : null;
      if (!target || !(menuRef.current?.contains(target) || buttonRef.current?.contains(target))) setOpen(false);
    };
    document.addEventListener("pointerdown", closeOutside);
    return () => document.removeEventListener("pointerdown", closeOutside);
  }, [open]);

  const onButtonKeyDown = (event: KeyboardEvent) => {
    if (event.key === "ArrowDown" || event.key === "Enter" || event.key === " ") openAt(0);
    else if (event.key === "ArrowUp") openAt(-1);
    else return;
    event.preventDefault();
  };

  const onMenuKeyDown = (event: KeyboardEvent) => {
    const list = items();
    const current = list.findIndex((item) => item === document.activeElement);
    const moveTo = (index: number) => list.at(index % list.length)?.focus();
    switch (event.key) {
      case "ArrowDown":
        moveTo(current + 1);
        break;
      case "ArrowUp":
        moveTo(current - 1);
        break;
      case "Home":
        moveTo(0);
        break;
      case "End":
        moveTo(-1);
        break;
      case "Escape":
        setOpen(false);
        buttonRef.current?.focus();
        break;
      case "Tab":
        setOpen(false);
        return;
      default:
        return;
    }
    event.preventDefault();
  };

  return (
    <div className="relative">
      <button
        ref={buttonRef}
        id={buttonId}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        data-state={open ? "open" : "closed"}
        onClick={() => (open ? setOpen(false) : openAt(0))}
        onKeyDown={onButtonKeyDown}
        className="inline-flex items-center gap-1 rounded-sm px-1 py-1 hover:text-primary focus-visible:outline-2 focus-visible:outline-offset-2 data-[state=open]:text-primary"
      >
        {label}
        <ChevronDown aria-hidden className="size-4" />
      </button>
      {open ? (
        // Keys reach the menu from its focused items; the menu itself is not a stop in the tab order.
        <div
          ref={menuRef}
          id={menuId}
          role="menu"
          aria-labelledby={buttonId}
          onKeyDown={onMenuKeyDown}
          onClick={(event) => {
            if (event.target instanceof Element && event.target.closest(ITEM)) setOpen(false);
          }}
          className="absolute top-full left-0 z-50 mt-1 min-w-[8rem] overflow-hidden rounded-md border bg-popover p-1 text-popover-foreground shadow-md"
        >
          {children}
        </div>
      ) : null}
    </div>
  );
}
