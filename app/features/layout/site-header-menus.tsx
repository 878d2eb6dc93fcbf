/** The header's menus: the owner's menus (Services, 7Fs by default) and "More" (desktop), and the mobile sheet. */
import { ExternalLink, Menu } from "lucide-react";
import { useId } from "react";
import { NavLink } from "react-router";
import { Button } from "~/components/ui/button";
import { MenuButton, menuItemClass } from "~/components/ui/menu-button";
import { Sheet, sheetTriggerProps } from "~/components/ui/sheet";
import { SearchForm } from "~/features/search/search-form";
import { cn } from "~/lib/utils";
import { AccountLinks } from "./account-links";
import { MenuLink } from "./menu-link";
import type { ResolvedItem, ResolvedLink } from "./menus";
import { NAV_FIT_MORE_FOR } from "./nav-fit-behavior";
import { useMenus, useResolvedItems } from "./use-menus";

type SubMenu = Extract<ResolvedItem, { type: "menu" }>;

/** A link inside a menu (role menuitem); another site's page shows an arrow. */
function MenuEntry({ link, hidden, more }: { link: ResolvedLink; hidden?: boolean; more?: string }) {
  return (
    <MenuLink
      link={link}
      role="menuitem"
      tabIndex={-1}
      hidden={hidden}
      className={menuItemClass}
      {...(more ? { [NAV_FIT_MORE_FOR]: more } : {})}
    >
      {link.label}
      {link.type === "external" ? <ExternalLink aria-hidden className="size-3.5 opacity-60" /> : null}
    </MenuLink>
  );
}

/** A desktop menu of the bar (the service links, the 7 Fs categories). */
export function HeaderSubMenu({ menu }: { menu: SubMenu }) {
  return (
    <MenuButton label={menu.label}>
      {menu.links.map((link) => (
        <MenuEntry key={link.href} link={link} />
      ))}
    </MenuButton>
  );
}

const groupLabelClass = "px-2 pt-2 pb-1 text-xs font-semibold tracking-wide text-muted-foreground uppercase";

/**
 * The top bar's "More" menu: an entry for every item of the bar, hidden until that item moves here
 * because the bar has no room for it beside the site name (nav-fit-behavior.ts shows and hides them).
 */
export function MoreMenu() {
  const items = useResolvedItems(useMenus().header);
  return (
    <MenuButton label="More" align="right">
      {items.map(({ key, item }) =>
        item.type === "link" ? (
          <MenuEntry key={key} link={item.link} hidden more={key} />
        ) : (
          <div key={key} role="group" aria-label={item.label} hidden {...{ [NAV_FIT_MORE_FOR]: key }}>
            <div aria-hidden className={groupLabelClass}>
              {item.label}
            </div>
            {item.links.map((link) => (
              <MenuEntry key={link.href} link={link} />
            ))}
          </div>
        ),
      )}
    </MenuButton>
  );
}

/** The menu sheet below the lg breakpoint; the sheet closes itself when a link or the search in it is used. */
export function MobileMenu() {
  const id = useId();
  const item = "block rounded-md px-3 py-2 hover:bg-accent focus-visible:outline-2";
  const items = useResolvedItems(useMenus().header);
  const navItem = (link: ResolvedLink) =>
    link.type === "route" ? (
      <NavLink to={link.href} end className={({ isActive }) => cn(item, isActive && "font-medium text-primary")}>
        {link.label}
      </NavLink>
    ) : (
      <MenuLink link={link} className={item} />
    );
  return (
    <>
      <Button variant="ghost" size="icon" className="lg:hidden" aria-label="Open menu" {...sheetTriggerProps(id)}>
        <Menu aria-hidden className="size-5" />
      </Button>
      <Sheet id={id} title="Menu" description="The site's pages and menus">
        <nav aria-label="Mobile" className="flex flex-col gap-4 px-4 pb-6 text-sm">
          <div className="px-3">
            <SearchForm label="Search" />
          </div>
          <ul className="flex flex-col">
            {items.flatMap(({ key, item: entry }) => (entry.type === "link" ? [<li key={key}>{navItem(entry.link)}</li>] : []))}
          </ul>
          {items.flatMap(({ key, item: entry }) =>
            entry.type === "menu"
              ? [
                  <div key={key}>
                    <h2 className="px-3 text-xs font-semibold tracking-wide text-muted-foreground uppercase">{entry.label}</h2>
                    <ul className={cn("mt-1", entry.kind === "categories" ? "grid grid-cols-2" : "flex flex-col")}>
                      {entry.links.map((link) => (
                        <li key={link.href}>{navItem(link)}</li>
                      ))}
                    </ul>
                  </div>,
                ]
              : [],
          )}
          <AccountLinks stacked />
        </nav>
      </Sheet>
    </>
  );
}
