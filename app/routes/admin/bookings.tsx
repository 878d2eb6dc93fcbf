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
  return withPageFailures(() => bookingsPageView(getDb(), actor, { month: new URL(request.url).searchParams.get("month") }));
}

export async function action({ request }: Route.ActionArgs) {
  return handleAdminForm(request, "bookings", bookingsIntents);
}

export default function Bookings({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <BookingsPage
      view={loaderData}
      failure={actionData && "error" in actionData ? actionData : undefined}
      feedAddress={actionData && "feedAddress" in actionData ? actionData.feedAddress : undefined}
    />
  );
}
