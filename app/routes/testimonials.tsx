import { Quote } from "lucide-react";
import { listVisibleTestimonials } from "~/features/pages/testimonials.server";
import { getDb } from "~/server/db/client.server";
import { DEFAULT_OG_IMAGE, seoContext, seoMeta } from "~/lib/seo";
import type { Route } from "./+types/testimonials";
import { STATIC_PAGE } from "~/lib/hydration";

/** No React for anonymous visitors (lib/hydration.ts). */
export const handle = STATIC_PAGE;

export function meta({ matches }: Route.MetaArgs) {
  return seoMeta(seoContext(matches), {
    title: "Testimonials — What Colleagues and Clients Say",
    description: "What colleagues and clients say about working with me.",
    path: "/testimonials",
    image: DEFAULT_OG_IMAGE,
  });
}

export async function loader() {
  return { testimonials: await listVisibleTestimonials(getDb()) };
}

export default function Testimonials({ loaderData }: Route.ComponentProps) {
  const { testimonials } = loaderData;
  return (
    <div className="mx-auto max-w-5xl px-4 py-16">
      <h1 className="text-4xl font-bold tracking-tight">Testimonials</h1>
      <p className="mt-3 text-lg text-muted-foreground">What colleagues and clients say about working with me</p>
      {testimonials.length === 0 ? (
        <p className="mt-10 rounded-xl border border-dashed p-8 text-center text-muted-foreground">No testimonials yet.</p>
      ) : (
        <ul className="mt-10 grid gap-6 md:grid-cols-2">
          {testimonials.map((testimonial) => (
            <li key={testimonial.id}>
              <figure className="flex h-full flex-col rounded-xl border bg-card p-6 shadow-sm">
                <Quote aria-hidden className="size-6 text-primary/60" />
                <blockquote className="mt-3 flex-1 text-base">“{testimonial.text}”</blockquote>
                <figcaption className="mt-5 border-t pt-4 text-sm">
                  <p className="font-semibold">{testimonial.name}</p>
                  <p className="text-muted-foreground">
                    {testimonial.position}
                    {testimonial.company ? `, ${testimonial.company}` : ""}
                  </p>
                  {testimonial.date ? <p className="text-muted-foreground">{testimonial.date}</p> : null}
                </figcaption>
              </figure>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
