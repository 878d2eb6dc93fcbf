import { HomePage } from "~/features/home/home-page";
import { homePageView } from "~/features/home/home-page.server";
import { DEFAULT_OG_IMAGE, seoContext, seoMeta } from "~/lib/seo";
import { expirePageAt } from "~/server/page-cache.server";
import type { Route } from "./+types/home";
import { STATIC_PAGE } from "~/lib/hydration";

/** No React for anonymous visitors (lib/hydration.ts). */
export const handle = STATIC_PAGE;

export function meta({ matches, data }: Route.MetaArgs) {
  const context = seoContext(matches);
  return seoMeta(context, {
    title: data?.headline ? `${context.siteName} — ${data.headline}` : context.siteName,
    description: data?.tagline || "Projects, roles, testimonials and the 7 Fs Framework blog.",
    path: "/",
    image: DEFAULT_OG_IMAGE,
  });
}

export async function loader({ request }: Route.LoaderArgs) {
  const view = await homePageView();
  // "Reach Me" lists slots: the cached page goes when its first slot leaves the notice or booking pauses.
  expirePageAt(request, view.booking?.changesAt ?? null);
  return view;
}

export default function Home({ loaderData }: Route.ComponentProps) {
  return <HomePage view={loaderData} />;
}
