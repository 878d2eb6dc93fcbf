/** Roles stored in user_roles. A signed-in user with neither is a plain 'user'. */
export const STORED_ROLES = ["admin", "moderator"] as const;
export type StoredRole = (typeof STORED_ROLES)[number];
export type Role = StoredRole | "user";

export const ROLE_LABELS: Record<Role, string> = {
  admin: "Administrator",
  moderator: "Moderator",
  user: "User",
};

/** SPEC §6: admin is checked first, then moderator; otherwise user. */
export function roleFromStored(roles: readonly string[]): Role {
  if (roles.includes("admin")) return "admin";
  if (roles.includes("moderator")) return "moderator";
  return "user";
}
