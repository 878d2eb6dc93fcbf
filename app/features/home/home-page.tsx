import { ArrowRight, Boxes, CalendarCheck, ClipboardList, Code2, Lightbulb } from "lucide-react";
import { Suspense } from "react";
import { Await, Link } from "react-router";
import { FeaturedCard } from "~/components/featured-card";
import { Reveal } from "~/components/reveal";
import { Spinner } from "~/components/spinner";
import { Button } from "~/components/ui/button";
import { ReachMeSlots } from "~/features/booking/reach-me-slots";
import { Portrait, portraitAlt } from "~/features/pages/portrait";
import type { HomePageView } from "./home-page.server";

const FEED_LABELS = { newsletter: "Newsletter", blog: "From the Blog", kb: "Knowledge Base" } as const;
const EXPERTISE_ICONS = [Lightbulb, ClipboardList, Boxes, Code2] as const;

/** The home page: hero, featured work, about, the 7 Fs teaser, expertise and how to reach the owner. */
export function HomePage({ view }: { view: HomePageView }) {
  const {
    article,
    teaserHref,
    project,
    externalPosts,
    headline,
    tagline,
    bio,
    ownerName,
    portrait,
    schedulingUrl,
    bookingMode,
    booking,
    feedsConfigured,
    heroGreeting,
    certifications,
    expertise,
    copy,
  } = view;
  return (
    <>
      <section aria-labelledby="hero-heading" className="bg-gradient-to-b from-accent to-background">
        <div className="mx-auto grid max-w-6xl items-center gap-10 px-4 py-16 md:grid-cols-[1fr_auto] md:py-24">
          <div>
            <p className="text-sm font-semibold tracking-wide text-primary uppercase">{copy.homeEyebrow}</p>
            {heroGreeting ? (
              <p className="mt-3 text-xl font-semibold" data-testid="hero-greeting">
                {heroGreeting}
              </p>
            ) : null}
            <h1 id="hero-heading" className="mt-3 text-4xl font-bold tracking-tight md:text-5xl">
              {headline || ownerName || "Welcome"}
            </h1>
            {tagline ? <p className="mt-4 max-w-2xl text-lg text-muted-foreground">{tagline}</p> : null}
            {certifications.length > 0 ? (
              <>
                <h2 className="mt-6 text-sm font-semibold">Certifications</h2>
                <ul className="mt-2 flex flex-wrap gap-2" aria-label="Certifications">
                  {certifications.map((certification, index) => (
                    <li key={`${index} ${certification}`} className="rounded-full border bg-background px-3 py-1 text-xs font-medium">
                      {certification}
                    </li>
                  ))}
                </ul>
              </>
            ) : null}
            <div className="mt-8 flex flex-wrap gap-4">
              <Button asChild size="lg">
                <Link to="/projects">View My Work</Link>
              </Button>
              <Button asChild size="lg" variant="outline">
                <Link to="/contact">Get In Touch</Link>
              </Button>
            </div>
          </div>
          <Portrait
            url={portrait.url}
            srcSet={portrait.srcSet}
            sizes="(min-width: 768px) 280px, 60vw"
            alt={portraitAlt(ownerName)}
            priority
            className="mx-auto w-60 rounded-2xl shadow-lg md:w-72"
          />
        </div>
      </section>

      <Reveal aria-labelledby="featured-heading" className="mx-auto max-w-6xl px-4 py-16">
        <h2 id="featured-heading" className="text-3xl font-bold tracking-tight">
          Featured Work
        </h2>
        <p className="mt-2 text-muted-foreground">{copy.homeFeaturedSubtitle}</p>
        {/* A new site has nothing to feature yet: one line says so, the grid below stays empty. */}
        {article || project || feedsConfigured ? null : (
          <p className="mt-8 rounded-xl border border-dashed p-8 text-center text-muted-foreground">
            Nothing to feature yet. New articles and projects will appear here.
          </p>
        )}
        <div className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {article ? (
            <FeaturedCard
              kicker={`7Fs · ${article.category}`}
              title={article.title}
              description={article.excerpt ?? "Click to read more about this article..."}
              image={article.image}
              imageAlt={article.imageAlt}
              href={article.href}
              cta="Read Article"
            />
          ) : null}
          <Suspense fallback={<Spinner label="Loading featured posts" className="sm:col-span-2 lg:col-span-1" />}>
            <Await resolve={externalPosts} errorElement={null}>
              {(posts) =>
                posts.map(({ kind, item }) =>
                  item ? (
                    <FeaturedCard
                      key={kind}
                      kicker={FEED_LABELS[kind]}
                      title={item.title}
                      description={item.description}
                      image={item.image}
                      href={item.link}
                      external
                      cta={kind === "newsletter" ? "Read Newsletter" : "Read Post"}
                    />
                  ) : null,
                )
              }
            </Await>
          </Suspense>
          {project ? (
            <FeaturedCard
              kicker="Web Project"
              title={project.title}
              description={project.description}
              image={project.imageUrl}
              href={project.url ?? "/projects"}
              external={Boolean(project.url)}
              cta={project.url ? "View Project" : "See Projects"}
            />
          ) : null}
        </div>
      </Reveal>

      <Reveal aria-labelledby="about-heading" className="bg-muted/40">
        <div className="mx-auto max-w-4xl px-4 py-16">
          <h2 id="about-heading" className="text-3xl font-bold tracking-tight">
            About Me
          </h2>
          {bio ? <p className="mt-4 text-lg whitespace-pre-line text-muted-foreground">{bio}</p> : null}
          <Button asChild variant="link" className="mt-4 px-0">
            <Link to="/about">
              More about me <ArrowRight aria-hidden />
            </Link>
          </Button>
        </div>
      </Reveal>

      <Reveal aria-labelledby="sevenfs-heading" className="mx-auto max-w-6xl px-4 py-16">
        <div className="rounded-2xl bg-primary px-6 py-12 text-primary-foreground md:px-12">
          <p className="text-sm font-semibold tracking-wide uppercase">{copy.sevenFsEyebrow}</p>
          <h2 id="sevenfs-heading" className="mt-2 text-3xl font-bold tracking-tight">
            {copy.sevenFsHeading}
          </h2>
          <p className="mt-4 max-w-2xl">{copy.sevenFsText}</p>
          <Button asChild size="lg" variant="secondary" className="mt-6">
            <Link to={teaserHref}>Read the Latest Article</Link>
          </Button>
        </div>
      </Reveal>

      {expertise.length > 0 ? (
        <Reveal aria-labelledby="expertise-heading" className="mx-auto max-w-6xl px-4 py-16">
          <h2 id="expertise-heading" className="text-3xl font-bold tracking-tight">
            Expertise
          </h2>
          <ul className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
            {expertise.map((area, index) => {
              const Icon = EXPERTISE_ICONS[index % EXPERTISE_ICONS.length] ?? Lightbulb;
              return (
                <li key={`${index} ${area.title}`} className="rounded-xl border bg-card p-6 shadow-sm">
                  <Icon aria-hidden className="size-8 text-primary" />
                  <h3 className="mt-4 text-lg font-semibold">{area.title}</h3>
                  <p className="mt-2 text-sm text-muted-foreground">{area.description}</p>
                </li>
              );
            })}
          </ul>
        </Reveal>
      ) : null}

      {bookingMode === "off" ? null : (
        <Reveal id="reach-me" aria-labelledby="reach-heading" className="bg-muted/40">
          <div className="mx-auto max-w-5xl px-4 py-16">
            <h2 id="reach-heading" className="flex items-center gap-2 text-3xl font-bold tracking-tight">
              <CalendarCheck aria-hidden className="size-7 text-primary" /> {copy.reachMeHeading}
            </h2>
            {bookingMode === "built-in" && booking ? (
              <ReachMeSlots booking={booking} />
            ) : (bookingMode === "external-link" || bookingMode === "external-embed") && schedulingUrl ? (
              <>
                <p className="mt-2 text-muted-foreground">{copy.reachMeBookingText}</p>
                {/* The link is always there: an embed that is blocked or fails to load never leaves a blank box. */}
                <Button asChild size="lg" className="mt-6">
                  <a href={schedulingUrl} rel="noopener noreferrer">
                    Open the booking page
                  </a>
                </Button>
                {bookingMode === "external-embed" ? (
                  <iframe
                    src={schedulingUrl}
                    title="Schedule a one-on-one call"
                    loading="lazy"
                    height={800}
                    style={{ height: 800 }}
                    className="mt-8 w-full rounded-xl border bg-background"
                  />
                ) : null}
              </>
            ) : (
              <>
                <p className="mt-2 text-muted-foreground">{copy.reachMeContactText}</p>
                <Button asChild size="lg" className="mt-6">
                  <Link to="/contact">Book a call</Link>
                </Button>
              </>
            )}
          </div>
        </Reveal>
      )}
    </>
  );
}
