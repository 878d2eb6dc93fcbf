/** Roles stored in user_roles. A signed-in user with neither is a plain 'user'. */
export const STORED_ROLES = ["admin", "moderator"] as const;
export type StoredRole = (typeof STORED_ROLES)[number];
/** Every role a signed-in user can have. */
export const ROLES = ["user", ...STORED_ROLES] as const;
export type Role = (typeof ROLES)[number];

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

export function isStoredRole(value: string): value is StoredRole {
  return (STORED_ROLES as readonly string[]).includes(value);
}
