import { Link } from "react-router";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { DIMENSION_TITLES, DIMENSIONS, type Dimension } from "./dimensions";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { CONVERSION_LABELS, PERIODS, type ConversionKindName, type Period, type Report, type Totals } from "./report-query";

const PERIOD_LABELS: Record<Period, string> = { today: "Today", "7d": "7 days", "30d": "30 days", "12m": "12 months" };
const CONVERSION_KINDS = Object.keys(CONVERSION_LABELS) as ConversionKindName[];
/** The filters conversions follow (they keep their visit's entry page, referrer, campaign and last post read). */
const CONVERSION_FILTERS: ReadonlySet<Dimension> = new Set(["page", "entry", "referrer", "campaign"]);

/** The period part of a report address: a preset, or the custom period shown (its checked dates). */
type PeriodParams = Record<string, string>;

function periodParamsOf(report: Report): PeriodParams {
  return report.period === "custom" ? { period: "custom", from: report.from, to: report.to } : { period: report.period };
}

function href(period: PeriodParams, filter: Report["filter"], extra: Record<string, string> = {}, base = "/admin/statistics"): string {
  const params = new URLSearchParams({ ...period, ...(filter ? { dimension: filter.dimension, value: filter.value } : {}), ...extra });
  return `${base}?${params.toString()}`;
}

function change(now: number, before: number): string {
  if (before === 0) return now === 0 ? "no change" : "new";
  const percent = Math.round(((now - before) / before) * 100);
  return `${percent >= 0 ? "+" : ""}${percent}% vs previous period`;
}

function headline(totals: Totals, conversions: Report["conversions"]) {
  const converted = Object.fromEntries(
    CONVERSION_KINDS.map((kind) => [CONVERSION_LABELS[kind], conversions.find((c) => c.kind === kind)?.count ?? 0]),
  );
  return {
    Visitors: totals.visitors,
    Visits: totals.visits,
    "Page views": totals.views,
    "Views per visit": totals.visits === 0 ? 0 : Math.round((totals.views / totals.visits) * 10) / 10,
    "Bounce rate (%)": totals.visits === 0 ? 0 : Math.round((totals.bounces / totals.visits) * 100),
    "Median visit (s)": totals.medianVisitSeconds,
    ...converted,
  };
}

/** Views and visitors per day as an SVG line chart (colours from the theme, so light and dark both read). */
function Chart({ series }: { series: Report["series"] }) {
  const width = 640;
  const height = 160;
  const max = Math.max(1, ...series.map((s) => s.views));
  const x = (i: number) => (series.length <= 1 ? width / 2 : (i / (series.length - 1)) * width);
  const y = (v: number) => height - (v / max) * (height - 8) - 4;
  const line = (key: "views" | "visitors") => series.map((s, i) => `${x(i).toFixed(1)},${y(s[key]).toFixed(1)}`).join(" ");
  return (
    <div className="mt-6">
      <figure>
        <svg viewBox={`0 0 ${width} ${height}`} className="h-40 w-full max-w-3xl" role="img" aria-label="Views and visitors per day">
          <polyline points={line("views")} fill="none" className="stroke-primary" strokeWidth="2" />
          <polyline points={line("visitors")} fill="none" className="stroke-muted-foreground" strokeWidth="2" strokeDasharray="4 3" />
        </svg>
        <figcaption className="text-sm text-muted-foreground">Solid: page views. Dashed: visitors.</figcaption>
      </figure>
      <details className="mt-2">
        <summary className="cursor-pointer text-sm">Chart as a table</summary>
        <Table>
          <TableCaption className="sr-only">Views and visitors per day</TableCaption>
          <TableHeader>
            <TableRow>
              <TableHead>Day</TableHead>
              <TableHead>Page views</TableHead>
              <TableHead>Visitors</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {series.map((s) => (
              <TableRow key={s.day}>
                <TableCell>{s.day}</TableCell>
                <TableCell>{s.views}</TableCell>
                <TableCell>{s.visitors}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </details>
    </div>
  );
}

function DimensionTable({ dimension, report, period }: { dimension: Dimension; report: Report; period: PeriodParams }) {
  const rows = report.tables[dimension];
  const total = rows.reduce((sum, r) => sum + (dimension === "page" ? r.views : r.visits), 0);
  return (
    <section aria-labelledby={`table-${dimension}`} className="rounded-lg border p-4">
      <div className="flex items-baseline justify-between gap-2">
        <h2 id={`table-${dimension}`} className="text-lg font-semibold">
          {DIMENSION_TITLES[dimension]}
        </h2>
        <a
          className="text-sm underline underline-offset-4"
          href={href(period, report.filter, { table: dimension }, "/admin/statistics.csv")}
        >
          CSV<span className="sr-only"> of {DIMENSION_TITLES[dimension]}</span>
        </a>
      </div>
      {rows.length === 0 ? (
        <p className="mt-2 text-sm text-muted-foreground">Nothing counted yet.</p>
      ) : (
        <Table data-testid={`statistics-${dimension}`}>
          <TableHeader>
            <TableRow>
              <TableHead>{dimension === "page" || dimension === "entry" ? "Page" : "Name"}</TableHead>
              <TableHead>{dimension === "page" ? "Views" : "Visits"}</TableHead>
              <TableHead>Share</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows.slice(0, 10).map((r) => {
              const n = dimension === "page" ? r.views : r.visits;
              return (
                <TableRow key={r.value}>
                  <TableCell className="[overflow-wrap:anywhere]">
                    <Link className="underline-offset-4 hover:underline" to={href(period, { dimension, value: r.value })}>
                      {r.value === "" ? (dimension === "referrer" ? "Direct" : "(none)") : r.value}
                    </Link>
                  </TableCell>
                  <TableCell>{n}</TableCell>
                  <TableCell>{total === 0 ? 0 : Math.round((n / total) * 100)}%</TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      )}
    </section>
  );
}

/** The preset periods as links, and a From–To form for a custom period (checked on the server; its problem shown beside it). */
function PeriodPicker({ report }: { report: Report }) {
  const entered = report.custom ?? { from: report.from, to: report.to };
  const errorId = "statistics-period-error";
  const invalid = report.periodError ? true : undefined;
  return (
    <div className="mt-4 flex flex-wrap items-end gap-4">
      <nav aria-label="Period" className="flex flex-wrap gap-2">
        {(Object.keys(PERIODS) as Period[]).map((p) => (
          <Link
            key={p}
            to={href({ period: p }, report.filter)}
            aria-current={p === report.period ? "page" : undefined}
            className="rounded border px-3 py-1 text-sm aria-[current=page]:bg-primary aria-[current=page]:text-primary-foreground"
          >
            {PERIOD_LABELS[p]}
          </Link>
        ))}
      </nav>
      <form method="get" action="/admin/statistics" className="flex flex-wrap items-end gap-2" aria-label="Custom period">
        <input type="hidden" name="period" value="custom" />
        {report.filter ? (
          <>
            <input type="hidden" name="dimension" value={report.filter.dimension} />
            <input type="hidden" name="value" value={report.filter.value} />
          </>
        ) : null}
        {(["from", "to"] as const).map((name) => (
          <div key={name} className="grid gap-1">
            <Label htmlFor={`statistics-${name}`}>{name === "from" ? "From" : "To"}</Label>
            <Input
              id={`statistics-${name}`}
              name={name}
              type="date"
              defaultValue={entered[name]}
              max={report.today}
              aria-invalid={invalid}
              aria-describedby={invalid && errorId}
              className="h-8 w-40"
            />
          </div>
        ))}
        <Button type="submit" size="sm" variant={report.period === "custom" ? "default" : "outline"}>
          Show period
        </Button>
      </form>
      {report.periodError ? (
        <p id={errorId} role="alert" className="w-full text-sm text-destructive">
          {report.periodError} Showing the last 7 days instead.
        </p>
      ) : null}
    </div>
  );
}

function ConversionTable({ by, rows }: { by: "entry" | "referrer" | "campaign" | "post"; rows: Report["conversionsBy"]["post"] }) {
  const title = by === "post" ? "By last post read" : by === "entry" ? "By entry page" : by === "referrer" ? "By referrer" : "By campaign";
  return (
    <div>
      <h3 className="font-medium">{title}</h3>
      {rows.length === 0 ? (
        <p className="text-sm text-muted-foreground">None yet.</p>
      ) : (
        <Table data-testid={`statistics-conversions-${by}`}>
          <TableHeader>
            <TableRow>
              <TableHead>{by === "referrer" || by === "campaign" ? "Name" : "Page"}</TableHead>
              {CONVERSION_KINDS.map((kind) => (
                <TableHead key={kind}>{CONVERSION_LABELS[kind]}</TableHead>
              ))}
              {by === "post" ? <TableHead>Conversion rate</TableHead> : null}
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows.map((r) => (
              <TableRow key={r.value}>
                <TableCell className="[overflow-wrap:anywhere]">{r.value || (by === "referrer" ? "Direct" : "(none)")}</TableCell>
                {CONVERSION_KINDS.map((kind) => (
                  <TableCell key={kind}>{r.kinds[kind]}</TableCell>
                ))}
                {by === "post" ? <TableCell>{r.visitors ? `${Math.round((r.total / r.visitors) * 1000) / 10}%` : "—"}</TableCell> : null}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </div>
  );
}

/** The whole report: headline figures, the daily chart, conversions and one table per dimension. */
export function StatisticsReport({ report }: { report: Report }) {
  const period = periodParamsOf(report);
  const now = headline(report.totals, report.conversions);
  const before = headline(report.previous, report.previousConversions);
  return (
    <section className="max-w-6xl">
      <h1 className="text-3xl font-bold">Statistics</h1>
      <p className="mt-2 text-muted-foreground">
        {report.from === report.to ? report.to : `${report.from} – ${report.to}`}, compared with the period before. Visitors now (last 5
        minutes): <strong data-testid="statistics-realtime">{report.realtime}</strong>
      </p>
      {report.sampled > 0 ? (
        <p className="mt-2 text-sm text-amber-800 dark:text-amber-300">
          Sampling: {report.sampled} views in this period were over the per-minute cap and are not in these figures.
        </p>
      ) : null}
      <PeriodPicker report={report} />
      {report.filter ? (
        <p className="mt-4 text-sm" data-testid="statistics-filter">
          Only visits with {DIMENSION_TITLES[report.filter.dimension].toLowerCase()}: <strong>{report.filter.value || "(none)"}</strong>{" "}
          (from the raw views of the last days kept).{" "}
          <Link to={href(period, null)} className="underline underline-offset-4">
            Show everything
          </Link>
        </p>
      ) : null}
      <dl className="mt-6 grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-5" data-testid="statistics-headline">
        {Object.entries(now).map(([label, value]) => (
          <div key={label} className="rounded-lg border p-3">
            <dt className="text-sm text-muted-foreground">{label}</dt>
            <dd className="text-2xl font-semibold">{value}</dd>
            <dd className="text-xs text-muted-foreground">{change(value, before[label as keyof typeof before])}</dd>
          </div>
        ))}
      </dl>
      <Chart series={report.series} />
      <section aria-labelledby="conversions" className="mt-6 rounded-lg border p-4">
        <h2 id="conversions" className="text-lg font-semibold">
          Conversions
        </h2>
        <p className="mt-1 text-sm text-muted-foreground">
          Each contact message, confirmed subscription and booked call, counted for its visit&apos;s entry page, referrer and campaign and
          the last post read before it.
          {report.filter && !CONVERSION_FILTERS.has(report.filter.dimension)
            ? ` Conversions do not keep the ${DIMENSION_TITLES[report.filter.dimension].toLowerCase()}: these are all of the period's.`
            : null}
        </p>
        <div className="mt-2 grid gap-4 md:grid-cols-2">
          {(["entry", "referrer", "campaign"] as const).map((by) => (
            <ConversionTable key={by} by={by} rows={report.conversionsBy[by].map((r) => ({ ...r, visitors: null }))} />
          ))}
          <ConversionTable by="post" rows={report.conversionsBy.post} />
        </div>
      </section>
      <div className="mt-6 grid gap-4 lg:grid-cols-2">
        {DIMENSIONS.map((d) => (
          <DimensionTable key={d} dimension={d} report={report} period={period} />
        ))}
      </div>
    </section>
  );
}
