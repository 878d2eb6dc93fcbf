import { Download, GraduationCap } from "lucide-react";
import { Reveal } from "~/components/reveal";
import { Button } from "~/components/ui/button";
import { CERTIFICATIONS, EDUCATION, SKILLS, TOOLS } from "~/features/site/content";
import { useSite } from "~/features/site/use-site";
import { DEFAULT_OG_IMAGE, seoContext, seoMeta } from "~/lib/seo";
import type { Route } from "./+types/about";

export function meta({ matches }: Route.MetaArgs) {
  return seoMeta(seoContext(matches), {
    title: "About Me — Education, Certifications, Skills and Tools",
    description: "Education, certifications, skills and the tools I use as a product manager, project manager and application developer.",
    path: "/about",
    image: DEFAULT_OG_IMAGE,
  });
}

function TagList({ items, label }: { items: readonly string[]; label: string }) {
  return (
    <ul aria-label={label} className="mt-4 flex flex-wrap gap-2">
      {items.map((item) => (
        <li key={item} className="rounded-full border bg-card px-3 py-1 text-sm">
          {item}
        </li>
      ))}
    </ul>
  );
}

export default function About() {
  const { resumeUrl } = useSite();
  return (
    <div className="mx-auto max-w-4xl px-4 py-16">
      <h1 className="text-4xl font-bold tracking-tight">About Me</h1>
      <p className="mt-4 text-lg text-muted-foreground">
        I am a product and project leader who still enjoys writing code. I have delivered healthcare systems, grown an enterprise SaaS
        product, and now run a consulting agency and a training business.
      </p>
      {resumeUrl ? (
        <Button asChild className="mt-6">
          <a href={resumeUrl} download>
            <Download aria-hidden /> Download My Resume
          </a>
        </Button>
      ) : null}

      <Reveal aria-labelledby="education-heading" className="mt-12">
        <h2 id="education-heading" className="text-2xl font-semibold">
          Education
        </h2>
        <ul className="mt-4 space-y-4">
          {EDUCATION.map((entry) => (
            <li key={entry.degree} className="flex gap-3 rounded-lg border bg-card p-4">
              <GraduationCap aria-hidden className="mt-0.5 size-5 shrink-0 text-primary" />
              <div>
                <p className="font-medium">{entry.degree}</p>
                <p className="text-sm text-muted-foreground">
                  {entry.school} · {entry.year}
                </p>
              </div>
            </li>
          ))}
        </ul>
      </Reveal>

      <Reveal aria-labelledby="certifications-heading" className="mt-12">
        <h2 id="certifications-heading" className="text-2xl font-semibold">
          Certifications
        </h2>
        <TagList items={CERTIFICATIONS} label="Certifications" />
      </Reveal>

      <Reveal aria-labelledby="skills-heading" className="mt-12">
        <h2 id="skills-heading" className="text-2xl font-semibold">
          Skills
        </h2>
        <TagList items={SKILLS} label="Skills" />
      </Reveal>

      <Reveal aria-labelledby="tools-heading" className="mt-12">
        <h2 id="tools-heading" className="text-2xl font-semibold">
          Tools
        </h2>
        <TagList items={TOOLS} label="Tools" />
      </Reveal>
    </div>
  );
}
