import { parseCategory, type Category } from "~/lib/categories";

export const ADMIN_FILTERS = ["all", "published", "drafts", "scheduled"] as const;
export type AdminFilter = (typeof ADMIN_FILTERS)[number];

/** The ?filter= of the admin post list; anything unknown shows all posts. */
export function adminFilterFrom(url: URL): AdminFilter {
  const raw = url.searchParams.get("filter");
  return ADMIN_FILTERS.find((f) => f === raw) ?? "all";
}

/** The longest title search Blog Management takes (a title is at most 200 characters). */
export const ADMIN_SEARCH_MAX = 200;

/** ?q= (a title search) and ?category= of the admin post list; an unknown category shows every category. */
export function adminNarrowingFrom(url: URL): { title: string; category: Category | undefined } {
  const title = (url.searchParams.get("q") ?? "").trim().slice(0, ADMIN_SEARCH_MAX);
  return { title, category: parseCategory(url.searchParams.get("category") ?? "") ?? undefined };
}

/** Blog Management's orders; "updated" (most recently updated first) is the default. */
export const ADMIN_SORTS = ["updated", "date", "title", "status"] as const;
export type AdminSort = (typeof ADMIN_SORTS)[number];

/** The ?sort= of the admin post list; anything unknown keeps the default order. */
export function adminSortFrom(url: URL): AdminSort {
  const raw = url.searchParams.get("sort");
  return ADMIN_SORTS.find((s) => s === raw) ?? "updated";
}

/** Where a Blog Management page starts: after a post (the next page), before one (the previous page), or at the top. */
export type AdminPosition = { after: string } | { before: string } | Record<string, never>;

const POST_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * ?after= / ?before= of the admin post list: the post a page starts after (next pages) or ends before
 * (previous pages). Anything that is not a post id is ignored: the list starts at the top.
 */
export function adminPositionFrom(url: URL): AdminPosition {
  const after = url.searchParams.get("after") ?? "";
  if (POST_ID.test(after)) return { after };
  const before = url.searchParams.get("before") ?? "";
  return POST_ID.test(before) ? { before } : {};
}
