import { CalendarClock, FileText, FolderKanban, PenLine } from "lucide-react";
import { Link, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { requireAdminShell } from "~/features/auth/guards.server";
import { getDashboardCounts } from "~/features/admin/dashboard-counts.server";
import { gettingStartedSteps } from "~/features/pages/getting-started";
import { getSiteSettings } from "~/features/settings/settings.server";
import { countPublishedDemoPosts } from "~/features/demo/demo-content.server";
import { readRequestMailStatus } from "~/features/mail/mail-settings.server";
import { ownerTimeZone, upcomingCalls } from "~/features/booking/booking.server";
import { longLabel } from "~/features/booking/slot-picker.server";
import { canManageBookings, canManageProjects, canManageSettings, canViewStatistics } from "~/lib/permissions";
import { getDb } from "~/server/db/client.server";
import { weekAtAGlance } from "~/features/analytics/reports.server";
import { WeekGlanceCard } from "~/features/analytics/week-glance-card";
import { Counter, GettingStartedCard, UpcomingCallsCard } from "~/features/admin/dashboard-cards";
import { NewPostMenu } from "~/features/admin/new-post-menu";
import type { Route } from "./+types/dashboard";

export function meta() {
  return [{ title: "Dashboard" }, { name: "robots", content: "noindex" }];
}

export async function loader({ request }: Route.LoaderArgs) {
  const actor = await requireAdminShell(request);
  const db = getDb();
  const zone = ownerTimeZone();
  // Independent reads, side by side; each is only what this actor can act on (the mail line is for
  // those who may change the mail settings).
  const [{ posts, projects }, settings, demoPosts, mail, calls, glance] = await Promise.all([
    getDashboardCounts(db),
    getSiteSettings(),
    countPublishedDemoPosts(db),
    canManageSettings(actor) ? readRequestMailStatus(request, db, actor) : null,
    canManageBookings(actor)
      ? upcomingCalls(db, actor).then(({ total, next }) => ({
          total,
          next: next.map((c) => ({
            id: c.id,
            start: c.startsAt.toISOString(),
            when: longLabel(c.startsAt.getTime(), zone),
            name: c.name,
            callTypeName: c.callTypeName,
          })),
        }))
      : null,
    canViewStatistics(actor) ? weekAtAGlance(db) : null,
  ]);
  // The checklist counts the owner's own posts: the unedited demo posts are not theirs.
  const steps = gettingStartedSteps({
    settings,
    publishedPosts: posts.published - demoPosts,
    canManageSettings: canManageSettings(actor),
  });
  return {
    posts,
    projects,
    steps,
    calls,
    glance,
    canManageProjects: canManageProjects(actor),
    mailStatus: !mail
      ? null
      : !mail.configured
        ? "Email isn't set up."
        : mail.lastFailure
          ? "Email is set up, but the last send failed."
          : "Email is working.",
  };
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { posts, projects, steps } = loaderData;
  // SPEC §2: each counter shows '...' while the numbers load (here: while the dashboard reloads).
  const navigation = useNavigation();
  const loading = navigation.state === "loading" && navigation.location.pathname === "/admin";
  return (
    <div className="flex flex-col gap-8">
      <div>
        <h1 className="text-3xl font-bold">Dashboard</h1>
        <p className="mt-2 text-muted-foreground">Welcome back! Here&apos;s an overview of your content.</p>
        {loaderData.mailStatus ? (
          <p className="mt-1 text-sm" data-testid="mail-status">
            {loaderData.mailStatus}{" "}
            <Link to="/admin/email" className="text-primary underline underline-offset-4">
              Email settings
            </Link>
          </p>
        ) : null}
      </div>
      <div className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-5">
        <Counter label="Total Posts" value={posts.total} icon={FileText} loading={loading} />
        <Counter label="Published" value={posts.published} icon={FileText} loading={loading} />
        <Counter label="Drafts" value={posts.drafts} icon={PenLine} loading={loading} />
        <Counter label="Scheduled" value={posts.scheduled} icon={CalendarClock} loading={loading} />
        <Counter label="Projects" value={projects} icon={FolderKanban} loading={loading} />
      </div>
      {loaderData.calls ? <UpcomingCallsCard calls={loaderData.calls} /> : null}
      {loaderData.glance ? <WeekGlanceCard glance={loaderData.glance} /> : null}
      <div className="grid gap-4 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>
              <h2>Quick Actions</h2>
            </CardTitle>
            <CardDescription>Jump to the most common tasks.</CardDescription>
          </CardHeader>
          <CardContent className="flex flex-col gap-2">
            <NewPostMenu variant="outline" size="default" />
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
        <GettingStartedCard steps={steps} />
      </div>
    </div>
  );
}
