import {
  AtSign,
  BarChart3,
  Briefcase,
  CalendarCheck,
  FileText,
  Files,
  IdCard,
  Images,
  Inbox,
  FolderKanban,
  LayoutDashboard,
  Mail,
  Menu,
  MessageSquareQuote,
  MessagesSquare,
  Newspaper,
  ScrollText,
  Settings,
  UserCog,
  Users,
  type LucideIcon,
} from "lucide-react";
import {
  canEdit,
  canEditPageContent,
  canManageBookings,
  canManageProjects,
  canManageSettings,
  canManageSubscribers,
  canManageUsers,
  canModerateComments,
  canReadMessages,
  canViewAuditLog,
  canUploadImages,
  canViewStatistics,
  type Actor,
} from "~/lib/permissions";

/** The admin sidebar, in order. Each entry is shown only to actors its permission allows. */
export interface AdminNavItem {
  to: string;
  label: string;
  icon: LucideIcon;
  /** Matches only the exact path (the dashboard), not its children. */
  end?: boolean;
  allowed: (actor: Actor) => boolean;
}

export const ADMIN_NAV: readonly AdminNavItem[] = [
  { to: "/admin", label: "Dashboard", icon: LayoutDashboard, end: true, allowed: canEdit },
  { to: "/admin/blog", label: "Blog Management", icon: FileText, allowed: canEdit },
  { to: "/admin/media", label: "Media", icon: Images, allowed: canUploadImages },
  { to: "/admin/statistics", label: "Statistics", icon: BarChart3, allowed: canViewStatistics },
  { to: "/admin/projects", label: "Projects", icon: FolderKanban, allowed: canManageProjects },
  { to: "/admin/users", label: "Users", icon: Users, allowed: canManageUsers },
  { to: "/admin/messages", label: "Messages", icon: Mail, allowed: canReadMessages },
  { to: "/admin/comments", label: "Comments", icon: MessagesSquare, allowed: canModerateComments },
  { to: "/admin/bookings", label: "Bookings", icon: CalendarCheck, allowed: canManageBookings },
  { to: "/admin/subscribers", label: "Subscribers", icon: Newspaper, allowed: canManageSubscribers },
  { to: "/admin/testimonials", label: "Testimonials", icon: MessageSquareQuote, allowed: canEditPageContent },
  { to: "/admin/recent-roles", label: "Recent Roles", icon: Briefcase, allowed: canEditPageContent },
  { to: "/admin/about", label: "About", icon: IdCard, allowed: canEditPageContent },
  { to: "/admin/pages", label: "Pages", icon: Files, allowed: canEditPageContent },
  { to: "/admin/settings", label: "Settings", icon: Settings, allowed: canManageSettings },
  { to: "/admin/menus", label: "Menus", icon: Menu, allowed: canManageSettings },
  { to: "/admin/email", label: "Email", icon: AtSign, allowed: canManageSettings },
  { to: "/admin/mail-log", label: "Mail log", icon: Inbox, allowed: canManageSettings },
  { to: "/admin/audit", label: "Audit log", icon: ScrollText, allowed: canViewAuditLog },
  // Every staff member's own account; the whole admin area (this page included) needs canEdit.
  { to: "/admin/account", label: "Account", icon: UserCog, allowed: canEdit },
];

export function adminNavFor(actor: Actor): AdminNavItem[] {
  return ADMIN_NAV.filter((item) => item.allowed(actor));
}

export const SIDEBAR_COOKIE = "sidebar_state";
/** SPEC §9: 7 days. */
export const SIDEBAR_COOKIE_MAX_AGE = 604_800;

/** SPEC §2: the first two characters of the email, upper case. */
export function avatarInitials(email: string): string {
  return email.slice(0, 2).toUpperCase();
}
