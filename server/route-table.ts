import { matchRoutes, type RouteObject } from "react-router";

export interface RouteInfo {
  loader: boolean;
  action: boolean;
  /** A route without a component answers with its own Response (feeds, files, /api). */
  resource: boolean;
}
export interface RouteTable {
  tree: RouteObject[];
  info: Map<string, RouteInfo>;
}
let routeTable: RouteTable | undefined;

/** Matches by pathname, remembered: React Router flattens and ranks the whole route tree on every call. */
const MATCH_MEMO_SIZE = 1000;
const matchMemo = new Map<string, ReturnType<typeof matchRoutes>>();
function matchesOf(table: RouteTable, pathname: string): ReturnType<typeof matchRoutes> {
  if (matchMemo.has(pathname)) return matchMemo.get(pathname) ?? null;
  const matches = matchRoutes(table.tree, pathname);
  // Any address can be asked for: the memo is emptied rather than allowed to grow.
  if (matchMemo.size >= MATCH_MEMO_SIZE) matchMemo.clear();
  matchMemo.set(pathname, matches);
  return matches;
}
/** The app's routes as React Router matches them, with what each one answers. */
export async function getRouteTable(): Promise<RouteTable> {
  if (routeTable) return routeTable;
  const build = await import("virtual:react-router/server-build");
  const entries = Object.values(build.routes).flatMap((route) => (route ? [route] : []));
  const info = new Map<string, RouteInfo>();
  for (const route of entries) {
    const m = route.module;
    info.set(route.id, {
      loader: typeof m.loader === "function",
      action: typeof m.action === "function",
      resource: typeof m.default !== "function",
    });
  }
  const childrenOf = (parentId: string | undefined): RouteObject[] =>
    entries
      .filter((route) => route.parentId === parentId)
      .map((route): RouteObject =>
        route.index
          ? { id: route.id, index: true, path: route.path, caseSensitive: route.caseSensitive }
          : { id: route.id, path: route.path, caseSensitive: route.caseSensitive, children: childrenOf(route.id) },
      );
  routeTable = { tree: childrenOf(undefined), info };
  matchMemo.clear();
  return routeTable;
}

/**
 * The route a request runs, by React Router's rule for submissions: the deepest route with a path of
 * its own (or the root), or an index route when the URL says ?index.
 */
export function targetRoute(table: RouteTable, pathname: string, search: string): RouteInfo | undefined {
  const matches = matchesOf(table, pathname);
  if (!matches) return undefined;
  const last = matches[matches.length - 1];
  const nakedIndex = new URLSearchParams(search).getAll("index").includes("");
  const target = last?.route.index && nakedIndex ? last : matches.filter((m, i) => i === 0 || Boolean(m.route.path)).pop();
  return target?.route.id ? table.info.get(target.route.id) : undefined;
}

/** The matched route's pattern ("/7fs/:category/:slug"): metrics are labelled by route, never by raw URL. */
export function routePatternOf(table: RouteTable, pathname: string): string {
  // React Router's data requests (/x.data) run the loaders of /x.
  const data = pathname.endsWith(".data");
  const page = data ? pathname.slice(0, -".data".length) || "/" : pathname;
  const matches = matchesOf(table, page);
  const pattern = matches ? `/${matches.flatMap((m) => (m.route.path ? [m.route.path] : [])).join("/")}` : "unmatched";
  return data ? `${pattern}.data` : pattern;
}
