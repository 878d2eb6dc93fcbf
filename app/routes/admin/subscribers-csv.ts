import { requireArea } from "~/features/auth/guards.server";
import { exportSubscribersCsv } from "~/features/subscriptions/subscriptions.server";
import { getDb } from "~/server/db/client.server";
import { withPageFailures } from "~/server/failure-reply.server";
import type { Route } from "./+types/subscribers-csv";

/** GET /admin/subscribers.csv: every subscriber, for a spreadsheet. */
export async function loader({ request }: Route.LoaderArgs) {
  const actor = await requireArea(request, "subscribers");
  const csv = await withPageFailures(() => exportSubscribersCsv(getDb(), actor));
  const day = new Date().toISOString().slice(0, 10);
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="subscribers-${day}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
}
