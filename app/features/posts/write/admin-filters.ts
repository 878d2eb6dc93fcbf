export const ADMIN_FILTERS = ["all", "published", "drafts", "scheduled"] as const;
export type AdminFilter = (typeof ADMIN_FILTERS)[number];

/** The ?filter= of the admin post list; anything unknown shows all posts. */
export function adminFilterFrom(url: URL): AdminFilter {
  const raw = url.searchParams.get("filter");
  return ADMIN_FILTERS.find((f) => f === raw) ?? "all";
}
