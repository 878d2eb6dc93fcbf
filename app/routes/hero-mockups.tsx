import { Check } from "lucide-react";
import { data, Link } from "react-router";
import { NotFoundMessage } from "~/components/not-found-message";
import { heroMockupsPublished } from "~/features/owner-pages/owner-pages.server";
import { useLayoutCopy } from "~/features/pages/use-layout-copy";
import { statusTitle } from "~/lib/http-status";
import { getDb } from "~/server/db/client.server";
import { ResponsiveImage } from "~/components/responsive-image";
import { Reveal } from "~/components/reveal";
import { HERO_OPTIONS } from "~/features/pages/content";
import { DEFAULT_OG_IMAGE, seoContext, seoMeta } from "~/lib/seo";
import type { Route } from "./+types/hero-mockups";
import { STATIC_PAGE } from "~/lib/hydration";

/** No React for anonymous visitors (lib/hydration.ts). */
export const handle = STATIC_PAGE;

/** A built-in page the owner may unpublish in Admin → Pages: then the site's 404. */
export async function loader() {
  if (await heroMockupsPublished(getDb())) return { published: true as const };
  return data({ published: false as const }, { status: 404 });
}

export function meta({ matches, data: d }: Route.MetaArgs) {
  if (!d?.published) return [{ title: statusTitle(404) }, { name: "robots", content: "noindex" }];
  return seoMeta(seoContext(matches), {
    title: "Hero Section Options",
    description: "Five design options for the home page hero section, with the benefits of each.",
    path: "/hero-mockups",
    image: DEFAULT_OG_IMAGE,
    noindex: true,
  });
}

export default function HeroMockups({ loaderData }: Route.ComponentProps) {
  const copy = useLayoutCopy();
  if (!loaderData.published) return <NotFoundMessage text={copy.notFoundText} />;
  return (
    <div className="mx-auto max-w-5xl px-4 py-16">
      <h1 className="text-4xl font-bold tracking-tight">Hero Section Options</h1>
      <p className="mt-3 text-lg text-muted-foreground">
        Five directions for the top of the home page. Each is a mock-up, not a finished design.
      </p>
      <ol className="mt-10 space-y-12">
        {HERO_OPTIONS.map((option, index) => (
          <li key={option.title}>
            <Reveal aria-label={option.title} className="overflow-hidden rounded-xl border bg-card shadow-sm">
              <ResponsiveImage
                src={option.image}
                widths={[600, 1200]}
                sizes="(min-width: 1024px) 1000px, 100vw"
                alt={`Mock-up of ${option.title}`}
                width={1200}
                height={675}
                priority={index === 0}
                className="aspect-video w-full object-cover"
              />
              <div className="p-6">
                <h2 className="text-2xl font-semibold">{option.title}</h2>
                <p className="mt-2 text-muted-foreground">{option.description}</p>
                <h3 className="mt-4 text-sm font-semibold">Benefits</h3>
                <ul className="mt-2 space-y-1">
                  {option.benefits.map((benefit) => (
                    <li key={benefit} className="flex items-start gap-2 text-sm">
                      <Check aria-hidden className="mt-0.5 size-4 shrink-0 text-primary" />
                      {benefit}
                    </li>
                  ))}
                </ul>
              </div>
            </Reveal>
          </li>
        ))}
      </ol>
      <div className="mt-12 rounded-xl border border-primary/40 bg-accent p-6 text-center">
        <p className="text-lg font-medium">Which option do you prefer?</p>
        <p className="mt-2 text-muted-foreground">
          Let me know which hero you like best — or which parts to combine — and I will build it for the home page.{" "}
          <Link to="/contact" className="font-medium text-primary underline">
            Send me your choice
          </Link>
          .
        </p>
      </div>
    </div>
  );
}
