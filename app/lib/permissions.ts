import type { Role } from "./roles";

/**
 * Who may do what — one module, used by the UI (to show or hide) and the server (to allow or refuse).
 * Our reading of SPEC §6 is recorded in docs/decisions/0004-permissions.md.
 */
export interface Actor {
  id: string;
  role: Role;
  /** Areas an administrator granted this moderator beyond the role's own (GRANTABLE_AREAS only). */
  grants?: readonly string[];
}

/**
 * The parts of the site a route can be guarded by as a whole, and THE table of who may enter each.
 * Least privilege: administrators enter every area; moderators only what writing needs — the admin
 * shell and dashboard, posts (their own and others', with image uploads) and their own account. The
 * owner's inbox (client leads), subscribers, site settings and mail, About/CV, recent roles,
 * testimonials and home lists, projects, users and the audit log are the administrators'. A new area
 * is one row here; every guard (requireArea), sidebar entry and domain rule below follows it.
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
  | "statistics"
  | "comments"
  | "bookings";

const STAFF: readonly Role[] = ["admin", "moderator"];
const ADMINS: readonly Role[] = ["admin"];

export const AREA_ROLES: Readonly<Record<Area, readonly Role[]>> = {
  admin: STAFF,
  posts: STAFF,
  account: STAFF,
  messages: ADMINS,
  settings: ADMINS,
  mail: ADMINS,
  "page-content": ADMINS,
  projects: ADMINS,
  users: ADMINS,
  subscribers: ADMINS,
  audit: ADMINS,
  statistics: ADMINS,
  comments: STAFF,
  bookings: ADMINS,
};

/**
 * The areas an administrator may also open to one moderator in Users ("Can also manage"), with their
 * labels there. Everything else stays with the role: a grant never reaches settings, users or mail.
 */
export const GRANTABLE_AREAS = ["messages", "page-content", "statistics"] as const satisfies readonly Area[];
export type GrantableArea = (typeof GRANTABLE_AREAS)[number];
export const GRANT_LABELS: Readonly<Record<GrantableArea, string>> = {
  messages: "Messages",
  "page-content": "Pages & profile",
  statistics: "Statistics",
};

export function isGrantableArea(value: string): value is GrantableArea {
  return (GRANTABLE_AREAS as readonly string[]).includes(value);
}

/** Whether the actor may open an area at all (each write inside it still asks its own rule). */
export function canEnterArea(actor: Actor | null | undefined, area: Area): boolean {
  if (!actor) return false;
  if (AREA_ROLES[area].includes(actor.role)) return true;
  return actor.role === "moderator" && isGrantableArea(area) && (actor.grants?.includes(area) ?? false);
}

/** Dashboard, admin area, footer Admin link, sidebar toggle. */
export function canEdit(actor: Actor | null | undefined): boolean {
  return canEnterArea(actor, "admin");
}

export function canCreatePost(actor: Actor | null | undefined): boolean {
  return canEnterArea(actor, "posts");
}

export function canUpdatePost(actor: Actor | null | undefined): boolean {
  return canEnterArea(actor, "posts");
}

/** Media: whoever writes posts uploads their images. */
export function canUploadImages(actor: Actor | null | undefined): boolean {
  return canEnterArea(actor, "posts");
}

/** The media library: an admin edits (alt text) and deletes any upload, whoever writes posts the ones they uploaded. */
export function canManageUpload(actor: Actor | null | undefined, upload: { userId: string | null }): boolean {
  if (!actor) return false;
  if (actor.role === "admin") return true;
  return canUploadImages(actor) && upload.userId !== null && upload.userId === actor.id;
}

/** Admin, or the post's author (while they still have edit rights). */
export function canDeletePost(actor: Actor | null | undefined, post: { authorId: string | null }): boolean {
  if (!actor) return false;
  if (actor.role === "admin") return true;
  return canEnterArea(actor, "posts") && post.authorId !== null && post.authorId === actor.id;
}

/** Drafts are visible only to those who write posts. */
export function canViewDrafts(actor: Actor | null | undefined): boolean {
  return canEnterArea(actor, "posts");
}

export function canManageProjects(actor: Actor | null | undefined): boolean {
  return canEnterArea(actor, "projects");
}

export function canManageUsers(actor: Actor | null | undefined): boolean {
  return canEnterArea(actor, "users");
}

/** The contact inbox holds the owner's client leads. */
export function canReadMessages(actor: Actor | null | undefined): boolean {
  return canEnterArea(actor, "messages");
}

export function canDeleteMessages(actor: Actor | null | undefined): boolean {
  return actor?.role === "admin";
}

/** Call types, availability, calendar feeds and bookings (/admin/bookings). */
export function canManageBookings(actor: Actor | null | undefined): boolean {
  return canEnterArea(actor, "bookings");
}

/** Site identity, addresses and feeds (/admin/settings). */
export function canManageSettings(actor: Actor | null | undefined): boolean {
  return canEnterArea(actor, "settings");
}

/** The public pages' content lists: testimonials, recent roles, About/CV and home lists. */
export function canEditPageContent(actor: Actor | null | undefined): boolean {
  return canEnterArea(actor, "page-content");
}

/** The audit log (/admin/audit) names who did what from where. */
export function canViewAuditLog(actor: Actor | null | undefined): boolean {
  return canEnterArea(actor, "audit");
}

/** Email subscribers (/admin/subscribers): their addresses are personal data. */
export function canManageSubscribers(actor: Actor | null | undefined): boolean {
  return canEnterArea(actor, "subscribers");
}

/** Visitor statistics (/admin/statistics) and the view counts beside posts. */
export function canViewStatistics(actor: Actor | null | undefined): boolean {
  return canEnterArea(actor, "statistics");
}

/** Readers' comments (/admin/comments): approve, reply, edit, delete, spam, block, close. */
export function canModerateComments(actor: Actor | null | undefined): boolean {
  return canEnterArea(actor, "comments");
}
