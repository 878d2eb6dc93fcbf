import { z } from "zod";
import { STORED_ROLES } from "~/lib/roles";

/** The Users screen's forms, checked with these same rules in the browser and by the action. */
export const createUserSchema = z.object({
  email: z.string({ error: "Email is required" }).min(1, "Email is required"),
  password: z.string().max(1024, "Password is too long").optional().default(""),
  role: z.enum(["user", ...STORED_ROLES], { message: "Choose a role: User, Moderator or Administrator" }),
});

export const roleChangeSchema = z.object({
  email: z.string({ error: "Email is required" }).min(1, "Email is required"),
  role: z.enum(STORED_ROLES, { message: "Unknown role" }),
});

export const USERS_FORBIDDEN = "Only administrators can manage users.";
