/** The header's menus: Services and 7Fs (desktop) and the mobile sheet. */
import { ExternalLink, Menu } from "lucide-react";
import { useId } from "react";
import { Link, NavLink } from "react-router";
import { Button } from "~/components/ui/button";
import { MenuButton, menuItemClass } from "~/components/ui/menu-button";
import { Sheet, sheetTriggerProps } from "~/components/ui/sheet";
import { SearchForm } from "~/features/search/search-form";
import { cn } from "~/lib/utils";
import { AccountLinks } from "./account-links";
import { ExternalLinkItems } from "./external-link-items";
import { NAV_FIT_MORE_FOR } from "./nav-fit-behavior";
import { CATEGORY_LINKS, CONTACT_LINK, NAV_LINKS, NEWSLETTER_KEY, NEWSLETTER_LABEL, SERVICES_KEY, SEVEN_FS_KEY } from "./site-links";
import { useSite } from "../settings/use-site";

/** The desktop Services menu: the owner's service links, opened in a new tab; none configured, no menu. */
export function ServicesMenu() {
  const { serviceLinks } = useSite();
  if (serviceLinks.length === 0) return null;
  return (
    <MenuButton label="Services">
      {serviceLinks.map((service) => (
        <a
          key={service.url}
          role="menuitem"
          tabIndex={-1}
          href={service.url}
          target="_blank"
          rel="noopener noreferrer"
          className={menuItemClass}
        >
          {service.label}
          <ExternalLink aria-hidden className="size-3.5 opacity-60" />
        </a>
      ))}
    </MenuButton>
  );
}

export function SevenFsMenu() {
  return (
    <MenuButton label="7Fs">
      {CATEGORY_LINKS.map((category) => (
        <Link key={category.to} role="menuitem" tabIndex={-1} to={category.to} className={menuItemClass}>
          {category.label}
        </Link>
      ))}
    </MenuButton>
  );
}

const groupLabelClass = "px-2 pt-2 pb-1 text-xs font-semibold tracking-wide text-muted-foreground uppercase";

/**
 * The top bar's "More" menu: an entry for every link of the bar, hidden until that link moves here
 * because the bar has no room for it beside the site name (nav-fit-behavior.ts shows and hides them).
 */
export function MoreMenu() {
  const site = useSite();
  const entry = { role: "menuitem", tabIndex: -1, hidden: true, className: menuItemClass } as const;
  return (
    <MenuButton label="More" align="right">
      {NAV_LINKS.map((link) => (
        <Link key={link.to} to={link.to} {...entry} {...{ [NAV_FIT_MORE_FOR]: link.key }}>
          {link.label}
        </Link>
      ))}
      {site.newsletterUrl ? (
        <a href={site.newsletterUrl} target="_blank" rel="noopener noreferrer" {...entry} {...{ [NAV_FIT_MORE_FOR]: NEWSLETTER_KEY }}>
          {NEWSLETTER_LABEL}
        </a>
      ) : null}
      <Link to={CONTACT_LINK.to} {...entry} {...{ [NAV_FIT_MORE_FOR]: CONTACT_LINK.key }}>
        {CONTACT_LINK.label}
      </Link>
      {site.serviceLinks.length > 0 ? (
        <div role="group" aria-label="Services" hidden {...{ [NAV_FIT_MORE_FOR]: SERVICES_KEY }}>
          <div aria-hidden className={groupLabelClass}>
            Services
          </div>
          {site.serviceLinks.map((service) => (
            <a
              key={service.url}
              href={service.url}
              target="_blank"
              rel="noopener noreferrer"
              role="menuitem"
              tabIndex={-1}
              className={menuItemClass}
            >
              {service.label}
              <ExternalLink aria-hidden className="size-3.5 opacity-60" />
            </a>
          ))}
        </div>
      ) : null}
      <div role="group" aria-label="7Fs" hidden {...{ [NAV_FIT_MORE_FOR]: SEVEN_FS_KEY }}>
        <div aria-hidden className={groupLabelClass}>
          7Fs
        </div>
        {CATEGORY_LINKS.map((category) => (
          <Link key={category.to} role="menuitem" tabIndex={-1} to={category.to} className={menuItemClass}>
            {category.label}
          </Link>
        ))}
      </div>
    </MenuButton>
  );
}

/** The menu sheet below the lg breakpoint; the sheet closes itself when a link or the search in it is used. */
export function MobileMenu() {
  const id = useId();
  const item = "block rounded-md px-3 py-2 hover:bg-accent focus-visible:outline-2";
  const site = useSite();
  return (
    <>
      <Button variant="ghost" size="icon" className="lg:hidden" aria-label="Open menu" {...sheetTriggerProps(id)}>
        <Menu aria-hidden className="size-5" />
      </Button>
      <Sheet id={id} title="Menu" description="Pages, services and the 7 Fs Framework blog">
        <nav aria-label="Mobile" className="flex flex-col gap-4 px-4 pb-6 text-sm">
          <div className="px-3">
            <SearchForm label="Search" />
          </div>
          <ul className="flex flex-col">
            {NAV_LINKS.map((link) => (
              <li key={link.to}>
                <NavLink to={link.to} end className={({ isActive }) => cn(item, isActive && "font-medium text-primary")}>
                  {link.label}
                </NavLink>
              </li>
            ))}
            <li>
              {site.newsletterUrl ? (
                <a href={site.newsletterUrl} target="_blank" rel="noopener noreferrer" className={item}>
                  {NEWSLETTER_LABEL}
                </a>
              ) : null}
            </li>
            <li>
              <NavLink to={CONTACT_LINK.to} className={({ isActive }) => cn(item, isActive && "font-medium text-primary")}>
                {CONTACT_LINK.label}
              </NavLink>
            </li>
          </ul>
          {site.serviceLinks.length > 0 ? (
            <div>
              <h2 className="px-3 text-xs font-semibold tracking-wide text-muted-foreground uppercase">Services</h2>
              <ul className="mt-1 flex flex-col">
                <ExternalLinkItems links={site.serviceLinks} className={item} />
              </ul>
            </div>
          ) : null}
          <div>
            <h2 className="px-3 text-xs font-semibold tracking-wide text-muted-foreground uppercase">7Fs</h2>
            <ul className="mt-1 grid grid-cols-2">
              {CATEGORY_LINKS.map((category) => (
                <li key={category.to}>
                  <NavLink to={category.to} className={item}>
                    {category.label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </div>
          <AccountLinks stacked />
        </nav>
      </Sheet>
    </>
  );
}
