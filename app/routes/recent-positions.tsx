import { Briefcase } from "lucide-react";
import { Reveal } from "~/components/reveal";
import { Portrait, portraitAlt } from "~/features/pages/portrait";
import { listPositions } from "~/features/pages/positions.server";
import { readSiteCopyQuietly } from "~/features/pages/site-copy.server";
import { getSiteSettings } from "~/features/settings/settings.server";
import { srcSetsFor } from "~/features/uploads/uploads.server";
import { getDb } from "~/server/db/client.server";
import { seoContext, seoMeta } from "~/lib/seo";
import type { Route } from "./+types/recent-positions";
import { STATIC_PAGE } from "~/lib/hydration";

/** No React for anonymous visitors (lib/hydration.ts). */
export const handle = STATIC_PAGE;

export function meta({ matches, data }: Route.MetaArgs) {
  return seoMeta(seoContext(matches), {
    title: "Recent Roles — Product, Project and Consulting Experience",
    description:
      "A timeline of recent roles: technical product manager, system project consultant, and owner of a consulting agency and a training business.",
    path: "/recent-roles",
    image: data?.portrait.url || "/images/portrait/portrait-480.webp",
  });
}

export async function loader() {
  const site = await getSiteSettings();
  const db = getDb();
  const [srcSets, positions, copy] = await Promise.all([srcSetsFor(db, [site.portraitUrl]), listPositions(db), readSiteCopyQuietly(db)]);
  return {
    portrait: { url: site.portraitUrl, srcSet: srcSets[site.portraitUrl] },
    ownerName: site.ownerName,
    positions,
    subtitle: copy.recentRolesSubtitle,
  };
}

export default function RecentPositions({ loaderData }: Route.ComponentProps) {
  const { portrait, ownerName, positions, subtitle } = loaderData;
  return (
    <div className="mx-auto max-w-5xl px-4 py-16">
      <div className="flex flex-col items-center gap-8 md:flex-row">
        <Portrait
          url={portrait.url}
          srcSet={portrait.srcSet}
          sizes="200px"
          alt={portraitAlt(ownerName)}
          priority
          className="w-40 rounded-2xl shadow md:w-48"
        />
        <div>
          <h1 className="text-4xl font-bold tracking-tight">Recent Roles</h1>
          <p className="mt-3 text-lg text-muted-foreground">{subtitle}</p>
        </div>
      </div>

      {positions.length === 0 ? (
        <p className="mt-12 rounded-xl border border-dashed p-8 text-center text-muted-foreground">No roles to show yet.</p>
      ) : (
        <ol className="relative mt-12 space-y-10 border-l-2 border-primary/30 pl-8">
          {positions.map((position) => (
            <li key={position.id} className="relative">
              <span
                aria-hidden
                className="absolute top-1 -left-[2.6rem] flex size-6 items-center justify-center rounded-full bg-primary text-primary-foreground"
              >
                <Briefcase className="size-3.5" />
              </span>
              <Reveal aria-label={`${position.title}, ${position.company}`} className="rounded-xl border bg-card p-6 shadow-sm">
                <h2 className="text-xl font-semibold">{position.title}</h2>
                <p className="font-medium text-primary">{position.company}</p>
                {position.period || position.location ? (
                  <p className="mt-1 text-sm text-muted-foreground">{[position.period, position.location].filter(Boolean).join(" · ")}</p>
                ) : null}
                <p className="mt-3">{position.description}</p>
                {position.bullets.length > 0 ? (
                  <ul className="mt-3 list-disc space-y-1 pl-5 text-sm text-muted-foreground">
                    {position.bullets.map((bullet, index) => (
                      <li key={`${index} ${bullet}`}>{bullet}</li>
                    ))}
                  </ul>
                ) : null}
              </Reveal>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
