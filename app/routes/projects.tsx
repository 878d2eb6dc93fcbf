import { ExternalLink } from "lucide-react";
import { ResponsiveImage, storedImage } from "~/components/responsive-image";
import { Reveal } from "~/components/reveal";
import { Badge } from "~/components/ui/badge";
import { listProjects } from "~/features/projects/projects.server";
import { readSiteCopyQuietly } from "~/features/pages/site-copy.server";
import { DEFAULT_OG_IMAGE, seoContext, seoMeta } from "~/lib/seo";
import { getDb } from "~/server/db/client.server";
import { logger } from "~/server/logger.server";
import type { Route } from "./+types/projects";
import { STATIC_PAGE } from "~/lib/hydration";

/** No React for anonymous visitors (lib/hydration.ts). */
export const handle = STATIC_PAGE;

export function meta({ matches }: Route.MetaArgs) {
  return seoMeta(seoContext(matches), {
    title: "My Projects — Web Development and Other Work",
    description: "Web applications I have designed and built, and other programs and projects I have led.",
    path: "/projects",
    image: DEFAULT_OG_IMAGE,
  });
}

export async function loader() {
  // A failed read leaves the lists empty (SPEC §8 silent failures); it is logged.
  const [projects, copy] = await Promise.all([
    listProjects(getDb()).catch((err: unknown) => {
      logger.error({ err }, "projects page read failed");
      return [];
    }),
    readSiteCopyQuietly(getDb()),
  ]);
  return {
    headings: { web: copy.projectsWebHeading, other: copy.projectsOtherHeading },
    // Featured projects lead, each group in the owner's order (the sort is stable).
    web: projects
      .filter((p) => p.type === "web")
      .sort((a, b) => Number(b.featured) - Number(a.featured))
      .map(({ id, title, description, imageUrl, url, featured }) => ({ id, title, description, imageUrl, url, featured })),
    other: projects.filter((p) => p.type === "other").map(({ id, title }) => ({ id, title })),
  };
}

export default function Projects({ loaderData }: Route.ComponentProps) {
  const { web, other, headings } = loaderData;
  return (
    <div className="mx-auto max-w-6xl px-4 py-16">
      <h1 className="text-4xl font-bold tracking-tight">{headings.web}</h1>
      {web.length === 0 ? (
        <p className="mt-6 text-muted-foreground">No web projects to show yet.</p>
      ) : (
        <ul className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {web.map((project, index) => {
            const picture = project.imageUrl ? storedImage(project.imageUrl) : null;
            return (
              <li key={project.id} className="flex flex-col overflow-hidden rounded-xl border bg-card shadow-sm">
                {picture ? (
                  <ResponsiveImage
                    src={picture.src}
                    widths={picture.widths}
                    sizes="(min-width: 1024px) 33vw, (min-width: 640px) 50vw, 100vw"
                    alt={`Screenshot of ${project.title}`}
                    width={800}
                    height={450}
                    priority={index < 3}
                    className="aspect-video w-full object-cover"
                  />
                ) : (
                  <div aria-hidden className="aspect-video w-full bg-gradient-to-br from-primary/80 to-sky-400/70" />
                )}
                <div className="flex flex-1 flex-col gap-2 p-5">
                  <div className="flex items-start justify-between gap-2">
                    <h2 className="text-lg font-semibold">{project.title}</h2>
                    {project.featured ? <Badge className="shrink-0">Featured</Badge> : null}
                  </div>
                  <p className="text-sm text-muted-foreground">{project.description}</p>
                  {project.url ? (
                    <a
                      href={project.url}
                      target="_blank"
                      rel="noopener noreferrer"
                      className="mt-auto inline-flex items-center gap-1 pt-2 text-sm font-medium text-primary hover:underline"
                    >
                      View Live <span className="sr-only">: {project.title} (opens in a new tab)</span>
                      <ExternalLink aria-hidden className="size-3.5" />
                    </a>
                  ) : null}
                </div>
              </li>
            );
          })}
        </ul>
      )}

      <Reveal aria-labelledby="other-projects-heading" className="mt-16">
        <h2 id="other-projects-heading" className="text-2xl font-semibold">
          {headings.other}
        </h2>
        {other.length === 0 ? (
          <p className="mt-4 text-muted-foreground">Nothing here yet.</p>
        ) : (
          <ul className="mt-4 list-disc space-y-2 pl-6">
            {other.map((project) => (
              <li key={project.id}>{project.title}</li>
            ))}
          </ul>
        )}
      </Reveal>
    </div>
  );
}
