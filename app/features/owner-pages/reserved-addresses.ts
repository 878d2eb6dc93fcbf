/**
 * Words no owner page may take as its address although no route of app/routes.ts starts with them:
 * the operations endpoints (served by Express before React Router), the built assets and public
 * files' folders, and words a visitor would read as the site's own.
 */
export const RESERVED_WORDS = [
  "assets",
  "images",
  "healthz",
  "readyz",
  "metrics",
  "favicon",
  "index",
  "blog",
  "pages",
  "feed",
  "static",
] as const;

/** A route of the built route table: its own path and its parent's id. */
export interface RouteEntry {
  id: string;
  path?: string;
  parentId?: string;
}

/**
 * The first segment of every route's full path ("/7fs/:category/new" → "7fs"), read from the route
 * table itself, so a route added later is reserved without a second list; segments that are
 * parameters or the catch-all reserve nothing.
 */
export function reservedAddresses(routes: readonly RouteEntry[]): Set<string> {
  const byId = new Map(routes.map((route) => [route.id, route]));
  const fullPath = (route: RouteEntry): string => {
    const parent = route.parentId ? byId.get(route.parentId) : undefined;
    const own = route.path ?? "";
    return parent ? `${fullPath(parent)}/${own}` : own;
  };
  const reserved = new Set<string>(RESERVED_WORDS);
  for (const route of routes) {
    const first = fullPath(route)
      .split("/")
      .find((segment) => segment !== "");
    if (first && !first.startsWith(":") && first !== "*") reserved.add(first.toLowerCase());
  }
  return reserved;
}
