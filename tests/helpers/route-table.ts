import routeTable from "~/routes";

interface RouteEntry {
  path?: string;
  index?: boolean;
  file: string;
  children?: RouteEntry[];
}

/** Every route of app/routes.ts with its whole path pattern ("/admin/about") and module file, index routes included. */
export function appRoutes(entries: readonly RouteEntry[] = routeTable, parent = ""): { pattern: string; file: string }[] {
  return entries.flatMap((entry) => {
    const own = [parent, entry.path].filter(Boolean).join("/");
    return [{ pattern: `/${own}`.replace(/\/+/g, "/"), file: entry.file }, ...appRoutes(entry.children ?? [], own)];
  });
}

/** The distinct URL patterns of the app ("/7fs/:category/:slug"), layout routes folded into their path. */
export function routePatterns(): string[] {
  return [...new Set(appRoutes().map((route) => route.pattern))];
}
