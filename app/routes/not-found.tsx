import { data } from "react-router";
import { NotFoundMessage } from "~/components/not-found-message";
import { useLayoutCopy } from "~/features/pages/use-layout-copy";
import { statusTitle } from "~/lib/http-status";
import { logger } from "~/server/logger.server";
import type { Route } from "./+types/not-found";
import { STATIC_PAGE } from "~/lib/hydration";

/** No React for anonymous visitors (lib/hydration.ts). */
export const handle = STATIC_PAGE;

export function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  logger.warn({ path: url.pathname }, "404: page not found");
  return data(null, { status: 404 });
}

export function meta() {
  return [{ title: statusTitle(404) }, { name: "robots", content: "noindex" }];
}

export default function NotFound() {
  return <NotFoundMessage text={useLayoutCopy().notFoundText} />;
}
