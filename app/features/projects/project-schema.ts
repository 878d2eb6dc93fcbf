import { z } from "zod";
import { PROJECT_TYPES } from "~/lib/project-types";
import { formCheckbox } from "~/lib/forms";
import { isSitePathOrWebUrl } from "~/lib/web-origin";

const optionalHttpUrl = (label: string) =>
  z
    .string()
    .trim()
    .max(2000, `${label} must be less than 2000 characters`)
    .transform((v) => (v === "" ? null : v))
    .pipe(z.url({ protocol: /^https?$/, message: `${label} must be a full web address starting with http:// or https://` }).nullable());

/** Image URLs may also be site-relative paths such as /uploads/… (from the upload module). */
const optionalImageUrl = z
  .string()
  .trim()
  .max(2000, "Image URL must be less than 2000 characters")
  .transform((v) => (v === "" ? null : v))
  .refine((v) => v === null || isSitePathOrWebUrl(v), {
    message: "Image URL must start with http://, https:// or /",
  });

export const projectInputSchema = z.object({
  title: z.string().trim().min(1, "Title is required").max(200, "Title must be less than 200 characters"),
  description: z.string().trim().max(2000, "Description must be less than 2000 characters").default(""),
  imageUrl: optionalImageUrl.default(""),
  type: z.enum(PROJECT_TYPES, { message: "Type must be Web or Other" }),
  url: optionalHttpUrl("Project URL").default(""),
  featured: formCheckbox,
});

export const projectIdSchema = z.uuid("Unknown project");

export const PROJECTS_FORBIDDEN = "Only administrators can manage projects.";
