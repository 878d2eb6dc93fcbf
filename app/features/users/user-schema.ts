import { z } from "zod";
import { accountEmailSchema } from "~/lib/email";
import { GRANTABLE_AREAS } from "~/lib/permissions";
import { ROLES, STORED_ROLES } from "~/lib/roles";

/** The users page's forms (admin/users), shared by the browser and the server. */
export const createUserSchema = z.object({
  email: accountEmailSchema,
  // Empty means "generate one"; the password policy itself is checked by createUser.
  password: z.string().max(1024, "Password is too long").optional().default(""),
  role: z.enum(ROLES, { message: "Choose a role: User, Moderator or Administrator" }),
});

export const roleChangeSchema = z.object({
  email: accountEmailSchema,
  role: z.enum(STORED_ROLES, { message: "Unknown role" }),
});

/** "Can also manage" on a moderator's row: the areas ticked (none ticked is none). */
export const grantsSchema = z.object({
  id: z.string().min(1, "Unknown user").max(200, "Unknown user"),
  grants: z
    .array(z.enum(GRANTABLE_AREAS, { message: "Choose among Messages, Pages & profile and Statistics" }))
    .max(GRANTABLE_AREAS.length),
});

export const USERS_FORBIDDEN = "Only administrators can manage users.";

/** Disable, enable, delete and send a reset link: the id of the user the row is about. */
export const userTargetSchema = z.object({ id: z.string().min(1, "Unknown user").max(200, "Unknown user") });

export const USER_MESSAGES = {
  lastAdmin: (what: "demoted" | "disabled" | "deleted") => `The last administrator cannot be ${what}`,
  notYourself: "You cannot disable or delete your own account. Ask another administrator.",
  disabled: "This account has been disabled. Ask an administrator to enable it.",
  resetDisabled: "Enable the account first: a disabled user cannot sign in, even with a new password.",
  notFound: "That user no longer exists.",
  grantsForModerators: "Only a moderator can be given more: an administrator already manages everything, a user nothing.",
} as const;
