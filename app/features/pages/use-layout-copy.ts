import { useRouteLoaderData } from "react-router";
import { layoutCopyOf, SITE_COPY_DEFAULTS, type LayoutCopy } from "./site-copy";

/** The layout's texts as the root loader read them (the defaults outside the root route, e.g. in tests). */
export function useLayoutCopy(): LayoutCopy {
  const data = useRouteLoaderData("root") as { copy?: LayoutCopy } | undefined;
  return data?.copy ?? layoutCopyOf(SITE_COPY_DEFAULTS);
}
