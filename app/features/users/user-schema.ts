import { z } from "zod";
import { accountEmailSchema } from "~/lib/email";
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

export const USERS_FORBIDDEN = "Only administrators can manage users.";
