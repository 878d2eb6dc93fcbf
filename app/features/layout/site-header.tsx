import { Loader2, Search as SearchIcon } from "lucide-react";
import { Link, NavLink, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { SearchForm } from "~/features/search/search-form";
import { ThemeToggle } from "~/components/theme-toggle";
import { cn } from "~/lib/utils";
import { AccountLinks } from "./account-links";
import { PAGE_LOADING_ATTRIBUTE } from "./page-loading-behavior";
import { MobileMenu, ServicesMenu, SevenFsMenu } from "./site-header-menus";
import { CONTACT_LINK, NAV_LINKS, NEWSLETTER_LABEL } from "./site-links";
import { useSite } from "../settings/use-site";

// The menus are in the page's first JavaScript on purpose: as lazy chunks a tap made before their code
// arrived was lost, and they are the site's navigation on a phone.

const linkClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    "rounded-sm px-1 py-1 transition-colors hover:text-primary focus-visible:outline-2 focus-visible:outline-offset-2",
    isActive && "font-medium text-primary",
  );

/**
 * While a public page's data loads after a click (e.g. /projects), a spinner shows in the top bar
 * (SPEC §2 "A spinner shows while loading"). The admin area has its own 'Loading...' line. On pages
 * without React, page-loading-behavior.ts shows it while the browser loads the next page.
 */
function PageLoadingSpinner() {
  const navigation = useNavigation();
  const loading = navigation.state === "loading" && !navigation.location.pathname.startsWith("/admin");
  return (
    <div role="status" aria-live="polite" className="flex size-5 shrink-0 items-center">
      <span hidden={!loading} className="flex items-center" {...{ [PAGE_LOADING_ATTRIBUTE]: "" }}>
        <Loader2 aria-hidden className="size-5 animate-spin text-primary" data-testid="page-loading" />
        <span className="sr-only">Loading page…</span>
      </span>
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
  return (
    <header className="fixed inset-x-0 top-0 z-40 border-b bg-background/95 backdrop-blur">
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
