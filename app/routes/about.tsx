import { Download, GraduationCap } from "lucide-react";
import { Reveal } from "~/components/reveal";
import { Button } from "~/components/ui/button";
import { readPageContent } from "~/features/pages/page-content.server";
import { getSiteSettings } from "~/features/settings/settings.server";
import { useSite } from "~/features/settings/use-site";
import { DEFAULT_OG_IMAGE, seoContext, seoMeta } from "~/lib/seo";
import { getDb } from "~/server/db/client.server";
import type { Route } from "./+types/about";
import { STATIC_PAGE } from "~/lib/hydration";

/** No React for anonymous visitors (lib/hydration.ts). */
export const handle = STATIC_PAGE;

export function meta({ matches }: Route.MetaArgs) {
  return seoMeta(seoContext(matches), {
    title: "About Me — Education, Certifications, Skills and Tools",
    description: "Education, certifications, skills and the tools I use as a product manager, project manager and application developer.",
    path: "/about",
    image: DEFAULT_OG_IMAGE,
  });
}

export async function loader() {
  const [{ intro, education, certifications, skills, tools }, site] = await Promise.all([readPageContent(getDb()), getSiteSettings()]);
  // Until the owner writes an introduction, the short bio of the settings introduces them here too.
  return { intro: intro || site.bio, education, certifications, skills, tools };
}

/** A section of the page; an empty list hides it (no empty boxes). */
function Section({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <Reveal aria-labelledby={`${id}-heading`} className="mt-12">
      <h2 id={`${id}-heading`} className="text-2xl font-semibold">
        {title}
      </h2>
      {children}
    </Reveal>
  );
}

function TagList({ items, label }: { items: readonly string[]; label: string }) {
  return (
    <ul aria-label={label} className="mt-4 flex flex-wrap gap-2">
      {items.map((item, index) => (
        <li key={`${index} ${item}`} className="rounded-full border bg-card px-3 py-1 text-sm">
          {item}
        </li>
      ))}
    </ul>
  );
}

export default function About({ loaderData }: Route.ComponentProps) {
  const { intro, education, certifications, skills, tools } = loaderData;
  const { resumeUrl } = useSite();
  const empty = education.length + certifications.length + skills.length + tools.length === 0;
  return (
    <div className="mx-auto max-w-4xl px-4 py-16">
      <h1 className="text-4xl font-bold tracking-tight">About Me</h1>
      {intro ? <p className="mt-4 text-lg whitespace-pre-line text-muted-foreground">{intro}</p> : null}
      {resumeUrl ? (
        <Button asChild className="mt-6">
          <a href={resumeUrl} download>
            <Download aria-hidden /> Download My Resume
          </a>
        </Button>
      ) : null}

      {empty ? (
        <p className="mt-12 rounded-xl border border-dashed p-8 text-center text-muted-foreground">
          More about my background is coming soon.
        </p>
      ) : null}

      {education.length > 0 ? (
        <Section id="education" title="Education">
          <ul className="mt-4 space-y-4">
            {education.map((entry, index) => (
              <li key={`${index} ${entry.degree}`} className="flex gap-3 rounded-lg border bg-card p-4">
                <GraduationCap aria-hidden className="mt-0.5 size-5 shrink-0 text-primary" />
                <div>
                  <p className="font-medium">{entry.degree}</p>
                  <p className="text-sm text-muted-foreground">{[entry.school, entry.year].filter(Boolean).join(" · ")}</p>
                </div>
              </li>
            ))}
          </ul>
        </Section>
      ) : null}

      {certifications.length > 0 ? (
        <Section id="certifications" title="Certifications">
          <TagList items={certifications} label="Certifications" />
        </Section>
      ) : null}

      {skills.length > 0 ? (
        <Section id="skills" title="Skills">
          <TagList items={skills} label="Skills" />
        </Section>
      ) : null}

      {tools.length > 0 ? (
        <Section id="tools" title="Tools">
          <TagList items={tools} label="Tools" />
        </Section>
      ) : null}
    </div>
  );
}
