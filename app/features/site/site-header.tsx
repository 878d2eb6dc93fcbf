import { ChevronDown, ExternalLink, LayoutDashboard, Loader2, LogOut, Menu, Search as SearchIcon } from "lucide-react";
import { useState } from "react";
import { Form, Link, NavLink, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from "~/components/ui/dropdown-menu";
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle, SheetTrigger } from "~/components/ui/sheet";
import { SearchForm, useSearchShortcut } from "~/features/search/search-form";
import { RecoveryRedirect } from "~/components/recovery-redirect";
import { ThemeToggle } from "~/components/theme-toggle";
import { useOptionalUser } from "~/lib/use-user";
import { cn } from "~/lib/utils";
import { CATEGORY_LINKS, CONTACT_LINK, NAV_LINKS, NEWSLETTER_LABEL } from "./site-links";
import { useSite } from "./use-site";
import { ExternalLinkItems } from "./external-link-items";

const linkClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    "rounded-sm px-1 py-1 transition-colors hover:text-primary focus-visible:outline-2 focus-visible:outline-offset-2",
    isActive && "font-medium text-primary",
  );

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

function ServicesMenu() {
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

function SevenFsMenu() {
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

function AccountLinks({ onNavigate, stacked = false }: { onNavigate?: () => void; stacked?: boolean }) {
  const user = useOptionalUser();
  // Between lg and xl the top bar has no room for the labels beside every link: icons, labels kept for screen readers.
  const compact = stacked ? undefined : "lg:max-xl:px-2";
  const compactIcon = stacked ? "hidden" : "hidden lg:max-xl:block";
  const compactLabel = stacked ? undefined : "lg:max-xl:sr-only";
  if (!user) {
    return (
      <Button asChild size="sm" variant="outline">
        <Link to="/auth" onClick={onNavigate}>
          Login
        </Link>
      </Button>
    );
  }
  return (
    <div className={cn("flex gap-2", stacked ? "flex-col items-stretch" : "items-center")}>
      {user.canEdit ? (
        <Button asChild size="sm" variant="secondary" className={compact}>
          <Link to="/admin" onClick={onNavigate}>
            <LayoutDashboard aria-hidden className={compactIcon} />
            <span className={compactLabel}>Dashboard</span>
          </Link>
        </Button>
      ) : null}
      <Form method="post" action="/logout">
        <Button type="submit" size="sm" variant="outline" className={cn(stacked ? "w-full" : compact)}>
          <LogOut aria-hidden className={compactIcon} />
          <span className={compactLabel}>Logout</span>
        </Button>
      </Form>
    </div>
  );
}

function MobileMenu() {
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

/**
 * While a public page's data loads after a click (e.g. /projects), a spinner shows in the top bar
 * (SPEC §2 "A spinner shows while loading"). The admin area has its own 'Loading...' line.
 */
function PageLoadingSpinner() {
  const navigation = useNavigation();
  const loading = navigation.state === "loading" && !navigation.location.pathname.startsWith("/admin");
  return (
    <div role="status" aria-live="polite" className="flex size-5 shrink-0 items-center">
      {loading ? (
        <>
          <Loader2 aria-hidden className="size-5 animate-spin text-primary" data-testid="page-loading" />
          <span className="sr-only">Loading page…</span>
        </>
      ) : null}
    </div>
  );
}

/** The brand mark beside the name: the first characters of its first two words ("7 Fs Portfolio" → "7F"). */
export function siteMark(siteName: string): string {
  return siteName
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => word.charAt(0).toUpperCase())
    .join("");
}

/** Fixed top bar (SPEC §2 "Shared layout"); below the lg breakpoint the links move into a menu sheet. */
export function SiteHeader() {
  const site = useSite();
  useSearchShortcut();
  return (
    <header className="fixed inset-x-0 top-0 z-40 border-b bg-background/95 backdrop-blur">
      <RecoveryRedirect />
      <div className="mx-auto flex h-16 max-w-7xl items-center gap-2 px-4 xl:gap-4">
        {/* The owner picks the name: between lg and xl it yields its room to the links (truncated), never pushing them off. */}
        <Link to="/" className="flex min-w-9 items-center font-semibold whitespace-nowrap">
          {site.logoMark ? (
            <img
              src={site.logoMark.url}
              alt=""
              width={site.logoMark.width / 2}
              height={site.logoMark.height / 2}
              className="mr-1.5 h-8 w-auto shrink-0"
              data-testid="logo-mark"
            />
          ) : (
            <span aria-hidden className="mr-1 shrink-0 rounded bg-primary px-1.5 py-0.5 text-primary-foreground">
              {siteMark(site.siteName)}
            </span>
          )}
          <span className="truncate">{site.siteName}</span>
        </Link>
        <PageLoadingSpinner />
        <SearchForm label="Search" shortcut className="ml-auto hidden w-56 xl:block" />
        {/* Between lg and xl the links fill the bar: a link to the search page stands in for the field. */}
        <Button asChild variant="ghost" size="icon" className="ml-auto hidden lg:inline-flex xl:hidden">
          <Link to="/search" aria-label="Search">
            <SearchIcon aria-hidden className="size-5" />
          </Link>
        </Button>
        <nav aria-label="Main" className="hidden shrink-0 lg:block">
          <ul className="flex items-center gap-1 text-sm whitespace-nowrap xl:gap-4">
            {NAV_LINKS.map((link) => (
              <li key={link.to}>
                <NavLink to={link.to} end className={linkClass}>
                  {link.label}
                </NavLink>
              </li>
            ))}
            {site.newsletterUrl ? (
              <li>
                <a href={site.newsletterUrl} target="_blank" rel="noopener noreferrer" className={linkClass({ isActive: false })}>
                  {NEWSLETTER_LABEL}
                </a>
              </li>
            ) : null}
            <li>
              <NavLink to={CONTACT_LINK.to} className={linkClass}>
                {CONTACT_LINK.label}
              </NavLink>
            </li>
            <li>
              <ServicesMenu />
            </li>
            <li>
              <SevenFsMenu />
            </li>
            <li>
              <AccountLinks />
            </li>
          </ul>
        </nav>
        <div className="ml-auto flex shrink-0 items-center gap-1 lg:ml-0">
          <ThemeToggle />
          <div className="lg:hidden">
            <MobileMenu />
          </div>
        </div>
      </div>
    </header>
  );
}
