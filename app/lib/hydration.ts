/**
 * A route's `handle` for a page that needs no React in the browser: server-rendered
 * content whose few interactive parts app/enhance handles. For anonymous visitors without a toast
 * such a page ships no React (root.tsx); signed-in staff keep the full app (edit links, toasts).
 */
export const STATIC_PAGE = { hydrate: false } as const;

function optsOut(handle: unknown): boolean {
  return typeof handle === "object" && handle !== null && "hydrate" in handle && handle.hydrate === false;
}

/** True when every route of the page (the root aside) opted out of hydration. */
export function pageOptsOutOfHydration(matches: readonly { id: string; handle: unknown }[]): boolean {
  const pageRoutes = matches.filter((match) => match.id !== "root");
  return pageRoutes.length > 0 && pageRoutes.every((match) => optsOut(match.handle));
}
