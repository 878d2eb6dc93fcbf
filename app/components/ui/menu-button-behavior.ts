/**
 * The behaviour of the header's menu buttons (menu-button.tsx draws them), for every page: with
 * React or without it (anonymous public pages load no React). One listener per event on
 * the document, so menus drawn later (a client-side navigation) need nothing more.
 *
 * The WAI-ARIA menu button keyboard model: Enter, Space or ArrowDown open a menu on its first item
 * (ArrowUp on the last), arrows/Home/End move between items, Escape closes it and returns to the
 * button, Tab closes it and moves on; a click outside closes it; one menu is open at a time.
 */
import { elementOf } from "~/lib/dom";

/** Marks a menu button; its aria-controls names its menu. */
export const MENU_BUTTON_ATTRIBUTE = "data-menu-button";
const BUTTON = `[${MENU_BUTTON_ATTRIBUTE}]`;
const ITEM = '[role="menuitem"]';

function menuOf(button: Element): HTMLElement | null {
  const id = button.getAttribute("aria-controls");
  return id ? document.getElementById(id) : null;
}

/** The button of a menu (its aria-labelledby). */
function buttonOf(menu: Element): HTMLElement | null {
  const id = menu.getAttribute("aria-labelledby");
  const button = id ? document.getElementById(id) : null;
  return button?.matches(BUTTON) ? button : null;
}

/** The menu's items that are shown (a "More" menu hides the entries whose links fit in the bar). */
const itemsOf = (menu: Element) => [...menu.querySelectorAll<HTMLElement>(ITEM)].filter((item) => item.getClientRects().length > 0);

function setOpen(button: HTMLElement, open: boolean) {
  const menu = menuOf(button);
  if (!menu) return;
  button.setAttribute("aria-expanded", String(open));
  button.dataset.state = open ? "open" : "closed";
  menu.hidden = !open;
}

const openButtons = () => [...document.querySelectorAll<HTMLElement>(`${BUTTON}[aria-expanded="true"]`)];

function openAt(button: HTMLElement, index: number) {
  for (const other of openButtons()) if (other !== button) setOpen(other, false);
  setOpen(button, true);
  const menu = menuOf(button);
  if (menu) itemsOf(menu).at(index)?.focus();
}

function onButtonKeyDown(event: KeyboardEvent, button: HTMLElement) {
  if (event.key === "ArrowDown" || event.key === "Enter" || event.key === " ") openAt(button, 0);
  else if (event.key === "ArrowUp") openAt(button, -1);
  else return;
  event.preventDefault();
}

function onMenuKeyDown(event: KeyboardEvent, menu: Element) {
  const button = buttonOf(menu);
  if (!button) return;
  const list = itemsOf(menu);
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
      setOpen(button, false);
      button.focus();
      break;
    case "Tab":
      setOpen(button, false);
      return;
    default:
      return;
  }
  event.preventDefault();
}

export function enhanceMenuButtons(): void {
  document.addEventListener("click", (event) => {
    const target = elementOf(event.target);
    const button = target?.closest<HTMLElement>(BUTTON);
    if (button) {
      if (button.getAttribute("aria-expanded") === "true") setOpen(button, false);
      else openAt(button, 0);
      return;
    }
    // An item was chosen: its link navigates, the menu closes.
    const menu = target?.closest(ITEM)?.closest('[role="menu"]');
    const owner = menu ? buttonOf(menu) : null;
    if (owner) setOpen(owner, false);
  });
  document.addEventListener("pointerdown", (event) => {
    const target = elementOf(event.target);
    for (const button of openButtons()) {
      const inside = target && (button.contains(target) || menuOf(button)?.contains(target));
      if (!inside) setOpen(button, false);
    }
  });
  document.addEventListener("keydown", (event) => {
    const target = elementOf(event.target);
    const button = target?.closest<HTMLElement>(BUTTON);
    if (button) return onButtonKeyDown(event, button);
    const menu = target?.closest('[role="menu"]');
    if (menu) onMenuKeyDown(event, menu);
  });
}
