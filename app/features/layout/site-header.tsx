import { Loader2, Search as SearchIcon } from "lucide-react";
import { Link, NavLink, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { SEARCH_OPENER_ATTRIBUTE, SearchForm } from "~/features/search/search-form";
import { ThemeToggle } from "~/components/theme-toggle";
import { cn } from "~/lib/utils";
import { AccountLinks } from "./account-links";
import { PAGE_LOADING_ATTRIBUTE } from "./page-loading-behavior";
import { NAV_FIT_ITEM, NAV_FIT_MORE, NAV_FIT_ROW, NAV_FIT_SEARCH_FIELD, NAV_FIT_SEARCH_ICON } from "./nav-fit-behavior";
import { HeaderSubMenu, MobileMenu, MoreMenu } from "./site-header-menus";
import { MenuLink } from "./menu-link";
import { navFitOrder } from "./menus";
import { useMenus, useResolvedItems } from "./use-menus";
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
    // Idle it takes no room in the bar (its margin undoes the bar's gap): the name and the links need it.
    <div role="status" aria-live="polite" className="-ml-2 flex shrink-0 items-center">
      <span hidden={!loading} className="ml-2 flex items-center" {...{ [PAGE_LOADING_ATTRIBUTE]: "" }}>
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
 * The site name is never cut: from lg up the bar gives way to it (nav-fit-behavior.ts: the search
 * field becomes its icon, then links move into "More"); on a phone a long name wraps onto a second line.
 */
export function SiteHeader() {
  const site = useSite();
  const { header } = useMenus();
  const items = useResolvedItems(header);
  return (
    <header className="fixed inset-x-0 top-0 z-40 border-b bg-background/95 backdrop-blur">
      <div
        className="relative mx-auto flex h-16 max-w-screen-2xl items-center gap-2 overflow-x-clip px-4"
        {...{ [NAV_FIT_ROW]: navFitOrder(header).join(" ") }}
      >
        <Link to="/" className="flex min-w-0 items-center font-semibold lg:shrink-0 lg:whitespace-nowrap">
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
          <span data-testid="site-name" className="min-w-0 leading-tight [overflow-wrap:anywhere] max-sm:text-sm">
            {site.siteName}
          </span>
        </Link>
        <PageLoadingSpinner />
        <div
          className="ml-auto hidden w-36 shrink-0 lg:block 2xl:w-56 data-[open]:absolute data-[open]:top-full data-[open]:right-4 data-[open]:mt-2 data-[open]:w-72 data-[open]:rounded-md data-[open]:bg-background data-[open]:shadow-md"
          {...{ [NAV_FIT_SEARCH_FIELD]: "" }}
        >
          <SearchForm label="Search" shortcut />
        </div>
        {/* Stands in for the field when the links need its room: it opens the field (nav-fit-behavior.ts), or without a script the search page. */}
        <Button asChild variant="ghost" size="icon" className="ml-auto shrink-0">
          <Link to="/search" aria-label="Search" hidden {...{ [NAV_FIT_SEARCH_ICON]: "", [SEARCH_OPENER_ATTRIBUTE]: "" }}>
            <SearchIcon aria-hidden className="size-5" />
          </Link>
        </Button>
        <nav aria-label="Main" className="hidden shrink-0 lg:block">
          <ul className="flex items-center gap-1 text-sm whitespace-nowrap">
            {items.map(({ key, item }) => (
              <li key={key} {...{ [NAV_FIT_ITEM]: key }}>
                {item.type === "menu" ? (
                  <HeaderSubMenu menu={item} />
                ) : item.link.type === "route" ? (
                  <NavLink to={item.link.href} end className={linkClass}>
                    {item.link.label}
                  </NavLink>
                ) : (
                  <MenuLink link={item.link} className={linkClass({ isActive: false })} />
                )}
              </li>
            ))}
            <li hidden {...{ [NAV_FIT_MORE]: "" }}>
              <MoreMenu />
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
