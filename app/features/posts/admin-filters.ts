export const ADMIN_FILTERS = ["all", "published", "drafts"] as const;
export type AdminFilter = (typeof ADMIN_FILTERS)[number];
