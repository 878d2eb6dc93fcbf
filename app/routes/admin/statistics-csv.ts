import { reportQueryOf } from "~/features/analytics/report-query";
import { reportCsv, statisticsReport } from "~/features/analytics/reports.server";
import { DIMENSIONS } from "~/features/analytics/dimensions";
import { requireArea } from "~/features/auth/guards.server";
import { getDb } from "~/server/db/client.server";
import { withPageFailures } from "~/server/failure-reply.server";
import type { Route } from "./+types/statistics-csv";

/** GET /admin/statistics.csv?table=referrer&period=30d (or period=custom&from=…&to=…): one table of the report, for a spreadsheet. */
export async function loader({ request }: Route.LoaderArgs) {
  const actor = await requireArea(request, "statistics");
  const url = new URL(request.url);
  const table = DIMENSIONS.find((d) => d === url.searchParams.get("table")) ?? "page";
  const report = await withPageFailures(() => statisticsReport(getDb(), actor, reportQueryOf(url)));
  if (report.periodError)
    return new Response(report.periodError, { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  return new Response(reportCsv(report.tables[table]), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="statistics-${table}-${report.from}-${report.to}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
}
