import { Briefcase } from "lucide-react";
import { ResponsiveImage } from "~/components/responsive-image";
import { Reveal } from "~/components/reveal";
import { ROLES } from "~/features/site/content";
import { publicUrlFromMatches, seoMeta } from "~/lib/seo";
import type { Route } from "./+types/recent-roles";

export function meta({ matches }: Route.MetaArgs) {
  return seoMeta(publicUrlFromMatches(matches), {
    title: "Recent Roles — Product, Project and Consulting Experience",
    description: "A timeline of recent roles: technical product manager, system project consultant, and owner of a consulting agency and a training business.",
    path: "/recent-roles",
    image: "/images/portrait/portrait-480.webp",
  });
}

export default function RecentRoles() {
  return (
    <div className="mx-auto max-w-5xl px-4 py-16">
      <div className="flex flex-col items-center gap-8 md:flex-row">
        <ResponsiveImage
          src="/images/portrait/portrait"
          widths={[240, 480]}
          sizes="200px"
          alt="Portrait of the site owner"
          width={480}
          height={600}
          priority
          className="w-40 rounded-2xl shadow md:w-48"
        />
        <div>
          <h1 className="text-4xl font-bold tracking-tight">Recent Roles</h1>
          <p className="mt-3 text-lg text-muted-foreground">Where I have led products, projects and teams recently.</p>
        </div>
      </div>

      <ol className="relative mt-12 space-y-10 border-l-2 border-primary/30 pl-8">
        {ROLES.map((role) => (
          <li key={`${role.title} ${role.company}`} className="relative">
            <span aria-hidden className="absolute top-1 -left-[2.6rem] flex size-6 items-center justify-center rounded-full bg-primary text-primary-foreground">
              <Briefcase className="size-3.5" />
            </span>
            <Reveal aria-label={`${role.title}, ${role.company}`} className="rounded-xl border bg-card p-6 shadow-sm">
              <h2 className="text-xl font-semibold">{role.title}</h2>
              <p className="font-medium text-primary">{role.company}</p>
              {role.period || role.location ? (
                <p className="mt-1 text-sm text-muted-foreground">{[role.period, role.location].filter(Boolean).join(" · ")}</p>
              ) : null}
              <p className="mt-3">{role.description}</p>
              {role.bullets && role.bullets.length > 0 ? (
                <ul className="mt-3 list-disc space-y-1 pl-5 text-sm text-muted-foreground">
                  {role.bullets.map((bullet) => (
                    <li key={bullet}>{bullet}</li>
                  ))}
                </ul>
              ) : null}
            </Reveal>
          </li>
        ))}
      </ol>
    </div>
  );
}
