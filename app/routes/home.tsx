import { Link } from "react-router";
import { Button } from "~/components/ui/button";
import { publicUrlFromMatches, seoMeta } from "~/lib/seo";
import type { Route } from "./+types/home";

export function meta({ matches }: Route.MetaArgs) {
  return seoMeta(publicUrlFromMatches(matches), {
    title: "Portfolio — Product & Project Manager, App Developer",
    description: "Product manager, project manager and application developer. Projects, roles, testimonials and the 7 Fs Framework blog.",
    path: "/",
  });
}

export default function Home() {
  return (
    <section className="mx-auto max-w-6xl px-4 py-24">
      <h1 className="text-4xl font-bold tracking-tight md:text-5xl">Product Manager, Project Manager &amp; Application Developer</h1>
      <p className="mt-4 max-w-2xl text-lg text-muted-foreground">
        I turn ideas into shipped products: clear roadmaps, calm delivery and working software.
      </p>
      <div className="mt-8 flex flex-wrap gap-4">
        <Button asChild size="lg">
          <Link to="/projects">View My Work</Link>
        </Button>
        <Button asChild size="lg" variant="outline">
          <Link to="/contact">Get In Touch</Link>
        </Button>
      </div>
    </section>
  );
}
