import { z } from "zod";

/**
 * The About page's introduction and lists and the home page's lists (/admin/about). The form edits each list as a
 * textarea, one item a line in display order (moving a line moves the item); items with several
 * parts are written "Part | Part". The stored record is the form schema's output.
 */

export const PAGE_CONTENT_SAVED = "Page content saved";

export const PAGE_CONTENT_LIMITS = {
  education: 12,
  certifications: 30,
  skills: 40,
  tools: 40,
  expertise: 8,
  item: 120,
  expertiseDescription: 400,
  intro: 2000,
  heroGreeting: 120,
} as const;

/** A trimmed string of at most `max` characters, named `label` in the message. */
export const boundedText = (label: string, max: number) => z.string().trim().max(max, `${label} must be at most ${max} characters`);

/** The non-blank lines of a textarea, trimmed. */
export function textLines(value: string): string[] {
  return value
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
}

/** The lines, or undefined (with the issue added) when there are more than `maxItems`. */
function countedLines(value: string, ctx: z.RefinementCtx, label: string, maxItems: number): string[] | undefined {
  const lines = textLines(value);
  if (lines.length <= maxItems) return lines;
  ctx.addIssue({ code: "custom", message: `${label}: at most ${maxItems} lines` });
  return undefined;
}

/** A textarea of at most `maxItems` lines of at most `maxLength` characters, as a list. */
export const lineList = (label: string, maxItems: number, maxLength: number) =>
  z
    .string()
    .default("")
    .transform((value, ctx): string[] => {
      const lines = countedLines(value, ctx, label, maxItems);
      if (!lines) return z.NEVER;
      const long = lines.findIndex((line) => line.length > maxLength);
      if (long !== -1) {
        ctx.addIssue({ code: "custom", message: `${label}, line ${long + 1}: at most ${maxLength} characters` });
        return z.NEVER;
      }
      return lines;
    });

interface LinePart {
  name: string;
  max: number;
  optional?: boolean;
}

/**
 * A textarea of items written "Part | Part | …" one a line, as lists of parts (the last part takes the
 * rest of the line, bars included).
 */
const partLines = (label: string, maxItems: number, parts: readonly LinePart[]) => {
  const format = parts.map((part) => part.name).join(" | ");
  return z
    .string()
    .default("")
    .transform((value, ctx): string[][] => {
      const lines = countedLines(value, ctx, label, maxItems);
      if (!lines) return z.NEVER;
      const items: string[][] = [];
      for (const [index, line] of lines.entries()) {
        const pieces = line.split("|");
        const values = parts.map((_, i) => (i === parts.length - 1 ? pieces.slice(i).join("|") : (pieces[i] ?? "")).trim());
        const where = `${label}, line ${index + 1}`;
        const missing = parts.findIndex((part, i) => !part.optional && !values[i]);
        if (missing !== -1) {
          ctx.addIssue({ code: "custom", message: `${where}: write it as "${format}"` });
          return z.NEVER;
        }
        const long = parts.find((part, i) => (values[i] ?? "").length > part.max);
        if (long) {
          ctx.addIssue({ code: "custom", message: `${where}: the ${long.name.toLowerCase()} must be at most ${long.max} characters` });
          return z.NEVER;
        }
        items.push(values);
      }
      return items;
    });
};

export interface EducationEntry {
  degree: string;
  school: string;
  year: string;
}

export interface ExpertiseArea {
  title: string;
  description: string;
}

const { item } = PAGE_CONTENT_LIMITS;

export const pageContentFormSchema = z.object({
  intro: boundedText("Introduction", PAGE_CONTENT_LIMITS.intro).default(""),
  heroGreeting: boundedText("Hero greeting", PAGE_CONTENT_LIMITS.heroGreeting).default(""),
  education: partLines("Education", PAGE_CONTENT_LIMITS.education, [
    { name: "Degree", max: item },
    { name: "School", max: item },
    { name: "Year", max: 40, optional: true },
  ]).transform((rows): EducationEntry[] => rows.map(([degree = "", school = "", year = ""]) => ({ degree, school, year }))),
  certifications: lineList("Certifications", PAGE_CONTENT_LIMITS.certifications, item),
  skills: lineList("Skills", PAGE_CONTENT_LIMITS.skills, item),
  tools: lineList("Tools", PAGE_CONTENT_LIMITS.tools, item),
  expertise: partLines("Expertise", PAGE_CONTENT_LIMITS.expertise, [
    { name: "Title", max: item },
    { name: "Description", max: PAGE_CONTENT_LIMITS.expertiseDescription },
  ]).transform((rows): ExpertiseArea[] => rows.map(([title = "", description = ""]) => ({ title, description }))),
});

export type PageContent = z.output<typeof pageContentFormSchema>;

/** What is stored: any subset of the record (a list added later is empty until saved). */
export const storedPageContentSchema = z
  .object({
    intro: z.string(),
    heroGreeting: z.string(),
    education: z.array(z.object({ degree: z.string(), school: z.string(), year: z.string() })),
    certifications: z.array(z.string()),
    skills: z.array(z.string()),
    tools: z.array(z.string()),
    expertise: z.array(z.object({ title: z.string(), description: z.string() })),
  })
  .partial();

export const EMPTY_PAGE_CONTENT: PageContent = {
  intro: "",
  heroGreeting: "",
  education: [],
  certifications: [],
  skills: [],
  tools: [],
  expertise: [],
};

/** The record as the form's textareas show it. */
export function pageContentFormValues(content: PageContent): Record<keyof PageContent, string> {
  return {
    intro: content.intro,
    heroGreeting: content.heroGreeting,
    education: content.education.map((e) => [e.degree, e.school, e.year].join(" | ").replace(/ \| $/, "")).join("\n"),
    certifications: content.certifications.join("\n"),
    skills: content.skills.join("\n"),
    tools: content.tools.join("\n"),
    expertise: content.expertise.map((e) => `${e.title} | ${e.description}`).join("\n"),
  };
}
