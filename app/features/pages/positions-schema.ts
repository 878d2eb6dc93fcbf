import { z } from "zod";
import { boundedText, lineList } from "./page-content-schema";

export const POSITION_LIMITS = { bullets: 12, bullet: 300 } as const;

/** One entry of the Recent Roles timeline as the admin form posts it; highlights are one a line. */
export const positionInputSchema = z.object({
  title: boundedText("Title", 120).min(1, "Title is required"),
  company: boundedText("Company", 120).min(1, "Company is required"),
  period: boundedText("Period", 60).default(""),
  location: boundedText("Location", 120).default(""),
  description: boundedText("Description", 1500).min(1, "Description is required"),
  bullets: lineList("Highlights", POSITION_LIMITS.bullets, POSITION_LIMITS.bullet),
});
