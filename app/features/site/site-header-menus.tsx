import { ChevronDown, ExternalLink, Menu } from "lucide-react";
import { useState } from "react";
import { Link, NavLink } from "react-router";
import { Button } from "~/components/ui/button";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from "~/components/ui/dropdown-menu";
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle, SheetTrigger } from "~/components/ui/sheet";
import { SearchForm } from "~/features/search/search-form";
import { cn } from "~/lib/utils";
import { AccountLinks } from "./account-links";
import { ExternalLinkItems } from "./external-link-items";
import { CATEGORY_LINKS, CONTACT_LINK, NAV_LINKS, NEWSLETTER_LABEL } from "./site-links";
import { useSite } from "./use-site";

/**
 * The header's menus (Services, 7Fs and the mobile sheet): Radix's dropdown, dialog and
 * floating-ui load with them, not in every page's initial JavaScript (site-header.tsx defers them).
 */
function MenuTriggerButton({ label }: { label: string }) {
  return (
    <DropdownMenuTrigger asChild>
      <button
        type="button"
        className="inline-flex items-center gap-1 rounded-sm px-1 py-1 hover:text-primary focus-visible:outline-2 focus-visible:outline-offset-2 data-[state=open]:text-primary"
      >
        {label}
        <ChevronDown aria-hidden className="size-4" />
      </button>
    </DropdownMenuTrigger>
  );
}

export function ServicesMenu() {
  const { serviceLinks } = useSite();
  if (serviceLinks.length === 0) return null;
  return (
    <DropdownMenu modal={false}>
      <MenuTriggerButton label="Services" />
      <DropdownMenuContent align="start">
        {serviceLinks.map((service) => (
          <DropdownMenuItem key={service.url} asChild>
            <a href={service.url} target="_blank" rel="noopener noreferrer">
              {service.label}
              <ExternalLink aria-hidden className="size-3.5 opacity-60" />
            </a>
          </DropdownMenuItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

export function SevenFsMenu() {
  return (
    <DropdownMenu modal={false}>
      <MenuTriggerButton label="7Fs" />
      <DropdownMenuContent align="start">
        {CATEGORY_LINKS.map((category) => (
          <DropdownMenuItem key={category.to} asChild>
            <Link to={category.to}>{category.label}</Link>
          </DropdownMenuItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

export function MobileMenu() {
  const [open, setOpen] = useState(false);
  const close = () => setOpen(false);
  const item = "block rounded-md px-3 py-2 hover:bg-accent focus-visible:outline-2";
  const site = useSite();
  return (
    <Sheet open={open} onOpenChange={setOpen}>
      <SheetTrigger asChild>
        <Button variant="ghost" size="icon" className="lg:hidden" aria-label="Open menu">
          <Menu aria-hidden className="size-5" />
        </Button>
      </SheetTrigger>
      <SheetContent side="right" className="overflow-y-auto">
        <SheetHeader>
          <SheetTitle>Menu</SheetTitle>
          <SheetDescription>Pages, services and the 7 Fs Framework blog</SheetDescription>
        </SheetHeader>
        <nav aria-label="Mobile" className="flex flex-col gap-4 px-4 pb-6 text-sm">
          <div className="px-3">
            <SearchForm label="Search" onSearch={close} />
          </div>
          <ul className="flex flex-col">
            {NAV_LINKS.map((link) => (
              <li key={link.to}>
                <NavLink to={link.to} end onClick={close} className={({ isActive }) => cn(item, isActive && "font-medium text-primary")}>
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
              <NavLink to={CONTACT_LINK.to} onClick={close} className={({ isActive }) => cn(item, isActive && "font-medium text-primary")}>
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
                  <NavLink to={category.to} onClick={close} className={item}>
                    {category.label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </div>
          <AccountLinks onNavigate={close} stacked />
        </nav>
      </SheetContent>
    </Sheet>
  );
}
