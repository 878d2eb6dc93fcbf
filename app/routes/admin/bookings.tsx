import { cameFromOf } from "~/features/analytics/attribution.server";
import { handleAdminForm } from "~/features/admin/admin-form.server";
import { requireArea } from "~/features/auth/guards.server";
import { BookingsPage } from "~/features/booking/bookings-page";
import { bookingsIntents, bookingsPageView } from "~/features/booking/bookings-page.server";
import { getDb } from "~/server/db/client.server";
import { withPageFailures } from "~/server/failure-reply.server";
import type { Route } from "./+types/bookings";

export function meta() {
  return [{ title: "Bookings — Admin" }, { name: "robots", content: "noindex" }];
}

export async function loader({ request }: Route.LoaderArgs) {
  const actor = await requireArea(request, "bookings");
  const view = await withPageFailures(() => bookingsPageView(getDb(), actor, { month: new URL(request.url).searchParams.get("month") }));
  const ids = [...view.upcoming, ...view.past].map((b) => b.id);
  return { ...view, cameFrom: Object.fromEntries(await cameFromOf(getDb(), "booking", ids)) };
}

export async function action({ request }: Route.ActionArgs) {
  return handleAdminForm(request, "bookings", bookingsIntents);
}

export default function Bookings({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <BookingsPage
      view={loaderData}
      cameFrom={loaderData.cameFrom}
      failure={actionData && "error" in actionData ? actionData : undefined}
      feedAddress={actionData && "feedAddress" in actionData ? actionData.feedAddress : undefined}
    />
  );
}
