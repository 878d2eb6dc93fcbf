import { ExternalLink, Loader2, LogOut, PanelLeft, UserCog, X } from "lucide-react";
import { useEffect, type ReactNode } from "react";
import { Form, Link, NavLink, Outlet, useNavigation } from "react-router";
import { ThemeToggle } from "~/components/theme-toggle";
import { Button } from "~/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "~/components/ui/dropdown-menu";
import { cn } from "~/lib/utils";
import { MailBanner, type MailBannerState } from "~/features/mail/mail-banner";
import { ADMIN_NAV, avatarInitials } from "./nav";
import { NewPostMenu } from "./new-post-menu";
import { useAdminSidebar, useIsMobile } from "./sidebar-state";

const MESSAGES_PATH = "/admin/messages";
const COMMENTS_PATH = "/admin/comments";

/** A count beside an entry ('Messages' unread, 'Comments' pending; a dot on the icon when the sidebar is collapsed). */
function UnreadBadge({
  count,
  collapsed,
  word = "unread",
  testId = "unread-messages",
}: {
  count: number;
  collapsed: boolean;
  word?: string;
  testId?: string;
}) {
  const label = `${count} ${word}`;
  if (collapsed) {
    return (
      <span className="absolute top-1.5 right-1.5 size-2 rounded-full bg-primary">
        <span className="sr-only">{label}</span>
      </span>
    );
  }
  return (
    <span className="ml-auto rounded-full bg-primary px-2 py-0.5 text-xs font-semibold text-primary-foreground" data-testid={testId}>
      {count > 99 ? "99+" : count}
      <span className="sr-only"> {word}</span>
    </span>
  );
}

/**
 * The admin area's own slim top bar (no public header): the sidebar toggle (SPEC §2, also Ctrl/Meta+B),
 * 'View site', the theme and the user menu.
 */
function AdminTopBar({ email, roleLabel, canOpenAccount }: { email: string; roleLabel: string; canOpenAccount: boolean }) {
  const { open, openMobile, toggle } = useAdminSidebar();
  const mobile = useIsMobile();
  return (
    <header
      data-admin-chrome
      className="sticky top-0 z-30 flex h-12 items-center gap-2 border-b bg-background/95 px-2 backdrop-blur md:px-4"
    >
      <Button
        type="button"
        variant="ghost"
        size="icon"
        className="shrink-0"
        onClick={toggle}
        aria-label="Toggle Sidebar"
        aria-expanded={mobile ? openMobile : open}
        title="Toggle Sidebar (Ctrl+B)"
        aria-keyshortcuts="Control+B Meta+B"
      >
        <PanelLeft aria-hidden />
      </Button>
      <div className="ml-auto flex items-center gap-1">
        <NewPostMenu />
        <Button asChild variant="ghost" size="sm">
          <Link to="/">
            <ExternalLink aria-hidden />
            View site
          </Link>
        </Button>
        <ThemeToggle />
        <DropdownMenu modal={false}>
          <DropdownMenuTrigger asChild>
            <Button type="button" variant="ghost" size="icon" className="rounded-full" aria-label={`User menu (${email})`}>
              <span
                aria-hidden
                className="flex size-8 items-center justify-center rounded-full bg-primary text-xs font-semibold text-primary-foreground"
              >
                {avatarInitials(email)}
              </span>
            </Button>
          </DropdownMenuTrigger>
          <DropdownMenuContent align="end" className="min-w-56">
            <DropdownMenuLabel>
              <span className="block truncate text-sm font-medium">{email}</span>
              <span className="block text-xs font-normal text-muted-foreground">{roleLabel}</span>
            </DropdownMenuLabel>
            <DropdownMenuSeparator />
            {canOpenAccount ? (
              <DropdownMenuItem asChild>
                <Link to="/admin/account">
                  <UserCog aria-hidden className="size-4" />
                  Account
                </Link>
              </DropdownMenuItem>
            ) : null}
            <DropdownMenuItem asChild>
              <Link to="/">
                <ExternalLink aria-hidden className="size-4" />
                View site
              </Link>
            </DropdownMenuItem>
            <DropdownMenuSeparator />
            <Form method="post" action="/logout">
              <DropdownMenuItem asChild>
                <button type="submit" className="w-full">
                  <LogOut aria-hidden className="size-4" />
                  Logout
                </button>
              </DropdownMenuItem>
            </Form>
          </DropdownMenuContent>
        </DropdownMenu>
      </div>
    </header>
  );
}

/** What the shell shows of the signed-in user and which admin pages they may open. */
export interface AdminShellView {
  user: { email: string; roleLabel: string };
  nav: string[];
  unreadMessages: number;
  /** The running release (package.json), in the sidebar's footer. */
  version: string;
  pendingComments: number;
  /** Shown across every admin page under the top bar (e.g. the mail banner). */
  banner?: ReactNode;
}

// SPEC §9 widths: 16rem expanded, 3rem icons only, 18rem on mobile (below 768px).
// The toggle button lives in the site header's top bar (SPEC §2 "Shared layout"); the state is shared.
/** The admin area's shell around its pages: sidebar (drawer on mobile), top bar and the page. */
export function AdminShell({ user, nav, unreadMessages, version, pendingComments, banner }: AdminShellView) {
  const { open, openMobile, setOpenMobile, toggle } = useAdminSidebar();
  const navigation = useNavigation();
  const items = ADMIN_NAV.filter((item) => nav.includes(item.to));

  // Leaving the admin area closes the mobile drawer.
  useEffect(() => () => setOpenMobile(false), [setOpenMobile]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      // The editor's Ctrl+B (bold) and other fields that took the key win over the sidebar toggle.
      if (event.defaultPrevented || isEditable(event.target)) return;
      if (event.key.toLowerCase() === "b" && (event.metaKey || event.ctrlKey)) {
        event.preventDefault();
        toggle();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [toggle]);

  useEffect(() => {
    if (!openMobile) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") setOpenMobile(false);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [openMobile, setOpenMobile]);

  const loadingAdminPage = navigation.state === "loading" && navigation.location.pathname.startsWith("/admin");

  const sidebarBody = (collapsed: boolean, onNavigate?: () => void) => (
    <div className="flex h-full flex-col">
      <div className={cn("flex h-12 items-center border-b px-3", collapsed && "justify-center px-0")}>
        {collapsed ? <span className="sr-only">Admin Panel</span> : <h2 className="truncate text-base font-semibold">Admin Panel</h2>}
      </div>
      <nav aria-label="Admin" className="flex-1 overflow-y-auto p-2">
        <ul className="flex flex-col gap-1">
          {items.map((item) => (
            <li key={item.to}>
              <NavLink
                to={item.to}
                end={item.end}
                onClick={onNavigate}
                title={collapsed ? item.label : undefined}
                className={({ isActive }) =>
                  cn(
                    "relative flex h-9 items-center gap-2 rounded-md px-2 text-sm outline-none hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring",
                    isActive && "bg-accent font-medium text-accent-foreground",
                    collapsed && "justify-center px-0",
                  )
                }
              >
                <item.icon className="size-4 shrink-0" aria-hidden />
                <span className={cn(collapsed && "sr-only")}>{item.label}</span>
                {item.to === MESSAGES_PATH && unreadMessages > 0 ? <UnreadBadge count={unreadMessages} collapsed={collapsed} /> : null}
                {item.to === COMMENTS_PATH && pendingComments > 0 ? (
                  <UnreadBadge count={pendingComments} collapsed={collapsed} word="pending" testId="pending-comments" />
                ) : null}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="border-t p-2">
        <div className={cn("flex items-center gap-2 p-1", collapsed && "justify-center")}>
          <span
            aria-hidden
            className="flex size-8 shrink-0 items-center justify-center rounded-full bg-primary text-xs font-semibold text-primary-foreground"
          >
            {avatarInitials(user.email)}
          </span>
          <div className={cn("min-w-0 flex-1 text-sm", collapsed && "sr-only")}>
            <p className="truncate font-medium" data-testid="sidebar-email">
              {user.email}
            </p>
            <p className="truncate text-xs text-muted-foreground">{user.roleLabel}</p>
          </div>
        </div>
        <Form method="post" action="/logout" className="mt-1">
          <Button
            type="submit"
            variant="ghost"
            size="sm"
            title={collapsed ? "Logout" : undefined}
            className={cn("w-full justify-start", collapsed && "justify-center px-0")}
          >
            <LogOut aria-hidden />
            <span className={cn(collapsed && "sr-only")}>Logout</span>
          </Button>
        </Form>
        <p className={cn("px-1 pt-1 text-xs text-muted-foreground", collapsed && "sr-only")} data-testid="app-version">
          Version {version}
        </p>
      </div>
    </div>
  );

  return (
    <div className="flex min-h-screen flex-1" data-sidebar-state={open ? "expanded" : "collapsed"}>
      <aside
        aria-label="Admin Panel"
        data-testid="admin-sidebar"
        data-admin-chrome
        className={cn(
          "sticky top-0 hidden h-screen shrink-0 border-r bg-background transition-[width] duration-200 md:block",
          open ? "w-[16rem]" : "w-[3rem]",
        )}
      >
        {sidebarBody(!open)}
      </aside>
      {openMobile ? (
        <div className="fixed inset-0 z-50 md:hidden">
          <button type="button" aria-label="Close sidebar" className="absolute inset-0 bg-black/50" onClick={() => setOpenMobile(false)} />
          <aside
            aria-label="Admin Panel"
            role="dialog"
            aria-modal="true"
            className="absolute inset-y-0 left-0 w-[18rem] bg-background shadow-lg"
          >
            <button
              type="button"
              aria-label="Close sidebar"
              // Focus moves into the drawer when it opens; Escape or this button closes it.
              autoFocus
              onClick={() => setOpenMobile(false)}
              className="absolute right-2 top-2 rounded p-1 hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring"
            >
              <X className="size-4" aria-hidden />
            </button>
            {sidebarBody(false, () => setOpenMobile(false))}
          </aside>
        </div>
      ) : null}
      <div className="flex min-w-0 flex-1 flex-col">
        <AdminTopBar email={user.email} roleLabel={user.roleLabel} canOpenAccount={nav.includes("/admin/account")} />
        <div data-admin-chrome>{banner}</div>
        <main id="main" className="relative flex-1 p-4 md:p-8">
          {loadingAdminPage ? (
            <div role="status" className="absolute inset-x-0 top-2 flex items-center justify-center gap-2 text-sm text-muted-foreground">
              <Loader2 className="size-4 animate-spin" aria-hidden />
              Loading...
            </div>
          ) : null}
          <Outlet />
        </main>
      </div>
    </div>
  );
}

/** The shell as the layouts draw it (the admin area's and the post editor's), with the mail banner. */
export function AdminShellPage({ mail, ...shell }: Omit<AdminShellView, "banner"> & { mail: MailBannerState }) {
  return <AdminShell {...shell} banner={<MailBanner mail={mail} canFix={shell.nav.includes("/admin/email")} />} />;
}

function isEditable(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
}
