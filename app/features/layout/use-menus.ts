import { useRouteLoaderData } from "react-router";
import { useSite } from "../settings/use-site";
import { DEFAULT_MENUS, headerItemKey, resolveMenuItem, type MenuItem, type ResolvedItem, type SiteMenus } from "./menus";

/** The menus as the root loader read them (the defaults outside the root route, e.g. in tests). */
export function useMenus(): SiteMenus {
  const data = useRouteLoaderData("root") as { menus?: SiteMenus } | undefined;
  return data?.menus ?? DEFAULT_MENUS;
}

/** Items as drawn now, each with its key for the bar's fitting; built-ins with nothing to show left out. */
export function useResolvedItems(items: readonly MenuItem[]): Array<{ key: string; item: ResolvedItem }> {
  const site = useSite();
  return items.flatMap((menuItem, index) => {
    const item = resolveMenuItem(menuItem, site);
    return item ? [{ key: headerItemKey(menuItem, index), item }] : [];
  });
}
