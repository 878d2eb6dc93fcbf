import { Loader2, Search as SearchIcon } from "lucide-react";
import { Link, NavLink, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { SEARCH_PATH, SearchForm } from "~/features/search/search-form";
import { ThemeToggle } from "~/components/theme-toggle";
import { cn } from "~/lib/utils";
import { AccountLinks } from "./account-links";
import { PAGE_LOADING_ATTRIBUTE } from "./page-loading-behavior";
import { MenuButton } from "~/components/ui/menu-button";
import { fitNavigation } from "./nav-fit";
import { HeaderMenuItem, MobileMenu, useHeaderItems } from "./site-header-menus";
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

/**
 * Fixed top bar (SPEC §2 "Shared layout"); below the lg breakpoint the links move into a menu sheet.
 * The site name is always shown in full (it wraps on a narrow phone rather than being cut); from lg the
 * links take the room the name leaves and those that do not fit wait in a "More" menu (nav-fit.ts).
 */
export function SiteHeader() {
  const site = useSite();
  return (
    <header className="fixed inset-x-0 top-0 z-40 border-b bg-background/95 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-7xl items-center gap-2 px-4 xl:gap-4">
        <Link to="/" className="flex min-w-0 items-center font-semibold" data-testid="site-name-link">
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
            <span aria-hidden className="mr-1 hidden shrink-0 rounded bg-primary px-1.5 py-0.5 text-primary-foreground sm:inline">
              {siteMark(site.siteName)}
            </span>
          )}
          {/* Long names wrap (any character may break a word longer than the room) instead of being cut. */}
          <span className="text-sm leading-tight [overflow-wrap:anywhere] sm:text-base" data-testid="site-name">
            {site.siteName}
          </span>
        </Link>
        <PageLoadingSpinner />
        <MainNavigation />
        <div className="hidden shrink-0 lg:block">
          <AccountLinks />
        </div>
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

/** The links of the bar from lg: each shows once it fits (a container query), the rest are in "More". */
function MainNavigation() {
  const items = useHeaderItems();
  const fit = fitNavigation(items.map((item) => ({ label: item.label, menu: item.kind === "menu" })));
  return (
    <nav aria-label="Main" className="@container hidden min-w-32 flex-1 lg:block">
      <ul className="flex items-center justify-end gap-2 text-sm whitespace-nowrap">
        <li className={fit.searchField}>
          <SearchForm label="Search" shortcut className="w-56" />
        </li>
        <li className={fit.searchIcon}>
          <Button asChild variant="ghost" size="icon">
            <Link to={SEARCH_PATH} aria-label="Search">
              <SearchIcon aria-hidden className="size-5" />
            </Link>
          </Button>
        </li>
        {items.map((item, index) => (
          <li key={item.label} className={fit.items[index]?.bar}>
            {item.kind === "menu" ? (
              <MenuButton label={item.label}>
                {item.links.map((link) => (
                  <HeaderMenuItem key={link.to} link={link} />
                ))}
              </MenuButton>
            ) : item.external ? (
              <a href={item.to} target="_blank" rel="noopener noreferrer" className={linkClass({ isActive: false })}>
                {item.label}
              </a>
            ) : (
              <NavLink to={item.to} end className={linkClass}>
                {item.label}
              </NavLink>
            )}
          </li>
        ))}
        <li className={fit.more}>
          <MenuButton label="More" align="right">
            {items.map((item, index) =>
              item.kind === "menu" ? (
                <div key={item.label} role="group" aria-labelledby={`more-${index}`} className={fit.items[index]?.more}>
                  <div id={`more-${index}`} role="presentation" className="px-2 pt-2 pb-1 text-xs font-semibold text-muted-foreground">
                    {item.label}
                  </div>
                  {item.links.map((link) => (
                    <HeaderMenuItem key={link.to} link={link} />
                  ))}
                </div>
              ) : (
                <HeaderMenuItem key={item.label} link={item} className={fit.items[index]?.more} />
              ),
            )}
          </MenuButton>
        </li>
      </ul>
    </nav>
  );
}
