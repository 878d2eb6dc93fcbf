import { requireActor } from "~/features/admin/admin-guard.server";
import { exportSubscribersCsv, SUBSCRIBERS_FORBIDDEN } from "~/features/subscriptions/subscriptions.server";
import { canManageSubscribers } from "~/lib/permissions";
import { getDb } from "~/server/db/client.server";
import { withRouteErrors } from "~/server/errors.server";
import type { Route } from "./+types/subscribers-csv";

/** GET /admin/subscribers.csv: every subscriber, for a spreadsheet. */
export async function loader({ request }: Route.LoaderArgs) {
  const actor = await requireActor(request, canManageSubscribers, SUBSCRIBERS_FORBIDDEN);
  const csv = await withRouteErrors(() => exportSubscribersCsv(getDb(), actor));
  const day = new Date().toISOString().slice(0, 10);
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="subscribers-${day}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
}
