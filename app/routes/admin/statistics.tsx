import { data } from "react-router";
import { reportQueryOf } from "~/features/analytics/report-query";
import { statisticsReport } from "~/features/analytics/reports.server";
import { StatisticsReport } from "~/features/analytics/statistics-report";
import { requireArea } from "~/features/auth/guards.server";
import { getDb } from "~/server/db/client.server";
import { withPageFailures } from "~/server/failure-reply.server";
import type { Route } from "./+types/statistics";

export function meta() {
  return [{ title: "Statistics — Admin" }, { name: "robots", content: "noindex" }];
}

/** Never cached: the admin area is per user, and these figures move every few seconds. */
export function headers() {
  return { "Cache-Control": "private, no-store" };
}

/** A custom period that cannot be shown answers 400 with the last 7 days and the problem beside the dates. */
export async function loader({ request }: Route.LoaderArgs) {
  const actor = await requireArea(request, "statistics");
  const query = reportQueryOf(new URL(request.url));
  const report = await withPageFailures(() => statisticsReport(getDb(), actor, query));
  return data(report, { status: report.periodError ? 400 : 200 });
}

export default function Statistics({ loaderData: report }: Route.ComponentProps) {
  return <StatisticsReport report={report} />;
}
