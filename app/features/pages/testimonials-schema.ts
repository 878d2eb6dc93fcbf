import { z } from "zod";

export const PAGE_CONTENT_FORBIDDEN = "Only administrators and moderators can edit the page content.";

const text = (label: string, max: number) => z.string().trim().max(max, `${label} must be at most ${max} characters`);

export const testimonialInputSchema = z.object({
  name: text("Name", 100).min(1, "Name is required"),
  position: text("Job title", 120).min(1, "Job title is required"),
  company: text("Company", 120).default(""),
  date: text("Date", 40).default(""),
  text: text("Quote", 1500).min(1, "Quote is required"),
});

export const contentIdSchema = z.uuid("This entry no longer exists.");
export const hiddenSchema = z.enum(["true", "false"], { message: "Hidden must be true or false" }).transform((v) => v === "true");
