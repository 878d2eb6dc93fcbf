import { CheckCircle2, Circle, type LucideIcon } from "lucide-react";
import { Link } from "react-router";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import type { GettingStartedStep } from "~/features/pages/getting-started";
import { cn } from "~/lib/utils";

/** One of the dashboard's counts ('...' while the numbers load). */
export function Counter({ label, value, icon: Icon, loading }: { label: string; value: number; icon: LucideIcon; loading: boolean }) {
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
  return (
    <Link
      to={step.to}
      className="flex items-center gap-2 rounded-md p-2 hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
    >
      {body}
    </Link>
  );
}

/** The 'Getting Started' checklist: what is done and what is left, each linked to where it is done. */
export function GettingStartedCard({ steps }: { steps: GettingStartedStep[] }) {
  const remaining = steps.filter((step) => !step.done).length;
  return (
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
  );
}

/** The owner's next booked calls and how many are upcoming, linked to the Bookings screen. */
export function UpcomingCallsCard({
  calls,
}: {
  calls: { total: number; next: Array<{ id: string; start: string; when: string; name: string; callTypeName: string }> };
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2 className="text-lg">
            Upcoming calls: <span data-testid="counter-Upcoming calls">{calls.total}</span>
          </h2>
        </CardTitle>
      </CardHeader>
      <CardContent>
        {calls.next.length === 0 ? (
          <p className="text-muted-foreground">No calls booked.</p>
        ) : (
          <ul className="grid gap-1">
            {calls.next.map((c) => (
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
  );
}
