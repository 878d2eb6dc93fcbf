/** The kinds of project (SPEC §3): the database, the project form and the pages all use this list. */
export const PROJECT_TYPES = ["web", "other"] as const;
export type ProjectType = (typeof PROJECT_TYPES)[number];
export const PROJECT_TYPE_LABELS: Record<ProjectType, string> = { web: "Web", other: "Other" };

/** A project's own fields, as the pages show them and the form, the importers and the demo content write them. */
export interface ProjectRecord {
  title: string;
  description: string;
  imageUrl: string | null;
  type: ProjectType;
  url: string | null;
  featured: boolean;
}
