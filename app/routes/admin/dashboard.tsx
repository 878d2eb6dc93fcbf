import { CalendarClock, CheckCircle2, Circle, FileText, FolderKanban, PenLine, type LucideIcon } from "lucide-react";
import { Link, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { requireAdminArea } from "~/features/admin/admin-guard.server";
import { getDashboardCounts } from "~/features/admin/dashboard-counts.server";
import { gettingStartedSteps, type GettingStartedStep } from "~/features/site/getting-started";
import { getSiteSettings } from "~/features/site/settings.server";
import { ownerTimeZone, upcomingCalls } from "~/features/booking/booking.server";
import { longLabel } from "~/features/booking/slot-picker.server";
import { canManageBookings, canManageProjects, canManageSettings } from "~/lib/permissions";
import { cn } from "~/lib/utils";
import { getDb } from "~/server/db/client.server";
import type { Route } from "./+types/dashboard";

export function meta() {
  return [{ title: "Dashboard" }, { name: "robots", content: "noindex" }];
}

export async function loader({ request }: Route.LoaderArgs) {
  const actor = await requireAdminArea(request);
  const { posts, projects } = await getDashboardCounts(getDb());
  const steps = gettingStartedSteps({
    settings: await getSiteSettings(),
    publishedPosts: posts.published,
    canManageSettings: canManageSettings(actor),
  });
  const zone = ownerTimeZone();
  const calls = canManageBookings(actor)
    ? await upcomingCalls(getDb(), actor).then(({ total, next }) => ({
        total,
        next: next.map((c) => ({
          id: c.id,
          start: c.startsAt.toISOString(),
          when: longLabel(c.startsAt.getTime(), zone),
          name: c.name,
          callTypeName: c.callTypeName,
        })),
      }))
    : null;
  return { posts, projects, steps, calls, canManageProjects: canManageProjects(actor) };
}

function Counter({ label, value, icon: Icon, loading }: { label: string; value: number; icon: LucideIcon; loading: boolean }) {
  return (
    <Card className="gap-2">
      <CardHeader className="flex flex-row items-center justify-between">
        <CardTitle className="text-sm font-medium">{label}</CardTitle>
        <Icon className="size-4 text-muted-foreground" aria-hidden />
      </CardHeader>
      <CardContent>
        <p className="text-2xl font-bold" data-testid={`counter-${label}`} aria-busy={loading || undefined}>
          {loading ? "..." : value}
        </p>
      </CardContent>
    </Card>
  );
}

/** One checklist line: done or to do (said in words too), linked to the screen where it is done. */
function GettingStartedItem({ step }: { step: GettingStartedStep }) {
  const Icon = step.done ? CheckCircle2 : Circle;
  const body = (
    <>
      <Icon aria-hidden className={cn("size-4 shrink-0", step.done ? "text-emerald-600" : "text-muted-foreground")} />
      <span className={cn(step.done && "text-muted-foreground line-through")}>{step.label}</span>
      <span className="sr-only">{step.done ? "(done)" : "(to do)"}</span>
    </>
  );
  if (!step.to) {
    return (
      <div className="flex items-center gap-2 p-2">
        {body}
        <span className="ml-auto text-xs text-muted-foreground">An administrator sets this</span>
      </div>
    );
  }
  return (
    <Link
      to={step.to}
      className="flex items-center gap-2 rounded-md p-2 hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
    >
      {body}
    </Link>
  );
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { posts, projects, steps } = loaderData;
  const remaining = steps.filter((step) => !step.done).length;
  // SPEC §2: each counter shows '...' while the numbers load (here: while the dashboard reloads).
  const navigation = useNavigation();
  const loading = navigation.state === "loading" && navigation.location.pathname === "/admin";
  return (
    <div className="flex flex-col gap-8">
      <div>
        <h1 className="text-3xl font-bold">Dashboard</h1>
        <p className="mt-2 text-muted-foreground">Welcome back! Here&apos;s an overview of your content.</p>
      </div>
      <div className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-5">
        <Counter label="Total Posts" value={posts.total} icon={FileText} loading={loading} />
        <Counter label="Published" value={posts.published} icon={FileText} loading={loading} />
        <Counter label="Drafts" value={posts.drafts} icon={PenLine} loading={loading} />
        <Counter label="Scheduled" value={posts.scheduled} icon={CalendarClock} loading={loading} />
        <Counter label="Projects" value={projects} icon={FolderKanban} loading={loading} />
      </div>
      {loaderData.calls ? (
        <Card>
          <CardHeader>
            <CardTitle>
              <h2 className="text-lg">
                Upcoming calls: <span data-testid="counter-Upcoming calls">{loaderData.calls.total}</span>
              </h2>
            </CardTitle>
          </CardHeader>
          <CardContent>
            {loaderData.calls.next.length === 0 ? (
              <p className="text-muted-foreground">No calls booked.</p>
            ) : (
              <ul className="grid gap-1">
                {loaderData.calls.next.map((c) => (
                  <li key={c.id}>
                    <time dateTime={c.start}>{c.when}</time> · {c.callTypeName} with {c.name}
                  </li>
                ))}
              </ul>
            )}
            <Link to="/admin/bookings" className="mt-3 inline-block text-sm text-primary underline underline-offset-4">
              All bookings
            </Link>
          </CardContent>
        </Card>
      ) : null}
      <div className="grid gap-4 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>
              <h2>Quick Actions</h2>
            </CardTitle>
            <CardDescription>Jump to the most common tasks.</CardDescription>
          </CardHeader>
          <CardContent className="flex flex-col gap-2">
            <Button asChild variant="outline" className="justify-start">
              <Link to="/admin/blog">
                <FileText aria-hidden />
                Manage Blog Posts
              </Link>
            </Button>
            {loaderData.canManageProjects ? (
              <Button asChild variant="outline" className="justify-start">
                <Link to="/admin/projects">
                  <FolderKanban aria-hidden />
                  Manage Projects
                </Link>
              </Button>
            ) : null}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>
              <h2>Getting Started</h2>
            </CardTitle>
            <CardDescription>
              {remaining === 0 ? "All set: your site is ready." : `${steps.length - remaining} of ${steps.length} done.`}
            </CardDescription>
          </CardHeader>
          <CardContent>
            <ul className="space-y-1 text-sm" aria-label="Getting started checklist">
              {steps.map((step) => (
                <li key={step.id} data-testid={`step-${step.id}`} data-done={step.done}>
                  <GettingStartedItem step={step} />
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
