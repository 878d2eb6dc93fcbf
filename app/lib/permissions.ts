import type { Role } from "./roles";

/**
 * Who may do what — one module, used by the UI (to show or hide) and the server (to allow or refuse).
 * Our reading of SPEC §6 is recorded in docs/decisions/0004-permissions.md.
 */
export interface Actor {
  id: string;
  role: Role;
}

/** Dashboard, admin area, footer Admin link, sidebar toggle. */
export function canEdit(actor: Actor | null | undefined): boolean {
  return actor?.role === "admin" || actor?.role === "moderator";
}

export function canCreatePost(actor: Actor | null | undefined): boolean {
  return canEdit(actor);
}

export function canUpdatePost(actor: Actor | null | undefined): boolean {
  return canEdit(actor);
}

export function canUploadImages(actor: Actor | null | undefined): boolean {
  return canEdit(actor);
}

/** Admin, or the post's author (while they still have edit rights). */
export function canDeletePost(actor: Actor | null | undefined, post: { authorId: string | null }): boolean {
  if (!actor) return false;
  if (actor.role === "admin") return true;
  return canEdit(actor) && post.authorId !== null && post.authorId === actor.id;
}

/** Drafts are visible only to staff. */
export function canViewDrafts(actor: Actor | null | undefined): boolean {
  return canEdit(actor);
}

export function canManageProjects(actor: Actor | null | undefined): boolean {
  return actor?.role === "admin";
}

export function canManageUsers(actor: Actor | null | undefined): boolean {
  return actor?.role === "admin";
}

export function canReadMessages(actor: Actor | null | undefined): boolean {
  return canEdit(actor);
}

export function canDeleteMessages(actor: Actor | null | undefined): boolean {
  return actor?.role === "admin";
}

/** Call types, availability, calendar feeds and bookings (/admin/bookings). */
export function canManageBookings(actor: Actor | null | undefined): boolean {
  return actor?.role === "admin";
}

/** Site identity, addresses and feeds (/admin/settings). */
export function canManageSettings(actor: Actor | null | undefined): boolean {
  return actor?.role === "admin";
}

/** The public pages' content lists: testimonials, recent roles, About and home lists. */
export function canEditPageContent(actor: Actor | null | undefined): boolean {
  return canEdit(actor);
}

/** The audit log (/admin/audit) names who did what from where: administrators only. */
export function canViewAuditLog(actor: Actor | null | undefined): boolean {
  return actor?.role === "admin";
}

/** Email subscribers (/admin/subscribers): their addresses are personal data, administrators only. */
export function canManageSubscribers(actor: Actor | null | undefined): boolean {
  return actor?.role === "admin";
}

/**
 * The parts of the site a route can be guarded by as a whole; each area's rule is one of the functions
 * above (finer per-area permissions can replace them here without touching a route).
 */
export type Area =
  | "admin"
  | "posts"
  | "messages"
  | "account"
  | "settings"
  | "mail"
  | "page-content"
  | "projects"
  | "users"
  | "subscribers"
  | "audit"
  | "bookings";

const AREA_RULES: Record<Area, (actor: Actor | null | undefined) => boolean> = {
  admin: canEdit,
  posts: canEdit,
  messages: canReadMessages,
  account: canEdit,
  settings: canManageSettings,
  mail: canManageSettings,
  "page-content": canEditPageContent,
  projects: canManageProjects,
  users: canManageUsers,
  subscribers: canManageSubscribers,
  audit: canViewAuditLog,
  bookings: canManageBookings,
};

/** Whether the actor may open an area at all (each write inside it still asks its own rule). */
export function canEnterArea(actor: Actor | null | undefined, area: Area): boolean {
  return AREA_RULES[area](actor);
}
