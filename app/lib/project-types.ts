/** The kinds of project (SPEC §3): the database, the project form and the pages all use this list. */
export const PROJECT_TYPES = ["web", "other"] as const;
export type ProjectType = (typeof PROJECT_TYPES)[number];
export const PROJECT_TYPE_LABELS: Record<ProjectType, string> = { web: "Web", other: "Other" };
