import { Link } from "react-router";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";

/** What the dashboard's card shows (reports.server weekAtAGlance). */
export interface WeekGlance {
  series: { day: string; views: number; visitors: number }[];
  topPost: { path: string; views: number } | null;
}

/** Views per day as a small line drawn on the server (no chart script on the dashboard); the numbers are in a list for screen readers. */
function Sparkline({ series }: { series: WeekGlance["series"] }) {
  const width = 280;
  const height = 48;
  const max = Math.max(1, ...series.map((s) => s.views));
  const x = (i: number) => (series.length <= 1 ? width / 2 : (i / (series.length - 1)) * (width - 4) + 2);
  const y = (v: number) => height - 3 - (v / max) * (height - 6);
  const points = series.map((s, i) => `${x(i).toFixed(1)},${y(s.views).toFixed(1)}`).join(" ");
  return (
    <>
      <svg viewBox={`0 0 ${width} ${height}`} className="h-12 w-full max-w-xs" aria-hidden data-testid="statistics-sparkline">
        <polyline points={points} fill="none" className="stroke-primary" strokeWidth="2" strokeLinejoin="round" />
        {series.map((s, i) => (
          <circle key={s.day} cx={x(i)} cy={y(s.views)} r="2" className="fill-primary" />
        ))}
      </svg>
      <ul className="sr-only" aria-label="Page views per day">
        {series.map((s) => (
          <li key={s.day}>
            {s.day}: {s.views} {s.views === 1 ? "view" : "views"}
          </li>
        ))}
      </ul>
    </>
  );
}

/** The dashboard's statistics card: the last 7 days' views and visitors, their daily line and the week's most read post. */
export function WeekGlanceCard({ glance }: { glance: WeekGlance }) {
  const views = glance.series.reduce((sum, s) => sum + s.views, 0);
  const visitors = glance.series.reduce((sum, s) => sum + s.visitors, 0);
  const top = glance.topPost;
  return (
    <Card data-testid="statistics-card">
      <CardHeader>
        <CardTitle>
          <h2>Statistics</h2>
        </CardTitle>
        <CardDescription>The last 7 days.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-3 text-sm">
        <p data-testid="statistics-week">
          <strong className="text-2xl font-bold">{views}</strong> {views === 1 ? "page view" : "page views"} ·{" "}
          <strong className="text-2xl font-bold">{visitors}</strong> {visitors === 1 ? "visitor" : "visitors"}
        </p>
        <Sparkline series={glance.series} />
        <p data-testid="statistics-top-post" className="[overflow-wrap:anywhere]">
          {top ? (
            <>
              Top post of the week:{" "}
              <Link
                to={`/admin/statistics?${new URLSearchParams({ period: "7d", dimension: "page", value: top.path }).toString()}`}
                className="text-primary underline underline-offset-4"
              >
                {top.path}
              </Link>{" "}
              ({top.views} {top.views === 1 ? "view" : "views"})
            </>
          ) : (
            "No post was read this week yet."
          )}
        </p>
        <Link to="/admin/statistics" className="self-start text-primary underline underline-offset-4">
          Open Statistics
        </Link>
      </CardContent>
    </Card>
  );
}
