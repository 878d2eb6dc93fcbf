import { Link } from "react-router";
import { cn } from "~/lib/utils";
import type { BookingsMonthView } from "./bookings-month.server";
import { WEEKDAY_NAMES } from "./month-grid";

type Day = BookingsMonthView["weeks"][number][number];
type Entry = Day["bookings"][number];

/** One call in a day: its time in the site's zone, the visitor and the call type; a link to its card when the lists below hold it. */
function CallEntry({ entry, listed }: { entry: Entry; listed: boolean }) {
  const text = (
    <>
      <time dateTime={entry.start} className="font-medium">
        {entry.time}
      </time>{" "}
      {entry.name} · {entry.callTypeName}
      {entry.cancelled ? " (cancelled)" : ""}
    </>
  );
  return (
    <li className={cn("break-words", entry.cancelled && "text-muted-foreground line-through")}>
      {listed ? (
        <a href={`#booking-${entry.id}`} className="underline-offset-2 hover:underline">
          {text}
        </a>
      ) : (
        text
      )}
    </li>
  );
}

const monthLink = (month: string) => `?month=${month}#calendar`;

/**
 * The admin's month of bookings: a table (weekday columns, a row a week) on wide screens, the days
 * with calls as a list on narrow ones; each shown by CSS only, so assistive technology meets one.
 * Months are plain links (work without JavaScript); every call links to its card below when listed.
 */
export function BookingsMonth({ view, zone, listedIds }: { view: BookingsMonthView; zone: string; listedIds: ReadonlySet<string> }) {
  const busyDays = view.weeks.flat().filter((d) => d.inMonth && d.bookings.length > 0);
  return (
    <section id="calendar" aria-labelledby="calendar-heading" className="mt-8">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="calendar-heading" className="text-2xl font-semibold">
          Calendar: {view.label}
        </h2>
        <nav aria-label="Months" className="flex flex-wrap gap-3 text-sm">
          <Link to={monthLink(view.previous.month)} className="underline underline-offset-2">
            ← {view.previous.label}
          </Link>
          {view.isCurrentMonth ? null : (
            <Link to="?#calendar" className="underline underline-offset-2">
              This month
            </Link>
          )}
          <Link to={monthLink(view.next.month)} className="underline underline-offset-2">
            {view.next.label} →
          </Link>
        </nav>
      </div>
      <table className="mt-3 hidden w-full table-fixed border-collapse text-sm md:table" data-testid="bookings-month">
        <caption className="sr-only">
          Bookings in {view.label}, times in {zone}
        </caption>
        <thead>
          <tr>
            {WEEKDAY_NAMES.map((name) => (
              <th key={name} scope="col" className="border p-1 text-left font-medium">
                <abbr title={name} className="no-underline">
                  {name.slice(0, 3)}
                </abbr>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {view.weeks.map((week) => (
            <tr key={week[0]?.day}>
              {week.map((d) => (
                <td
                  key={d.day}
                  aria-current={d.today ? "date" : undefined}
                  className={cn("h-24 border p-1 align-top", !d.inMonth && "bg-muted/40 text-muted-foreground", d.today && "bg-primary/5")}
                >
                  <span aria-hidden className={cn("text-xs", d.today && "rounded bg-primary px-1 font-semibold text-primary-foreground")}>
                    {d.date}
                  </span>
                  <span className="sr-only">{d.label}</span>
                  {d.bookings.length > 0 ? (
                    <ul className="mt-1 grid gap-1 text-xs" aria-label={`Calls on ${d.label}`}>
                      {d.bookings.map((entry) => (
                        <CallEntry key={entry.id} entry={entry} listed={listedIds.has(entry.id)} />
                      ))}
                    </ul>
                  ) : null}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <div className="mt-3 md:hidden">
        {busyDays.length === 0 ? (
          <p className="text-muted-foreground">No calls in {view.label}.</p>
        ) : (
          <ul className="grid gap-3" aria-label={`Days with calls in ${view.label}`}>
            {busyDays.map((d) => (
              <li key={d.day}>
                <p className="font-medium">
                  <time dateTime={d.day}>{d.label}</time>
                  {d.today ? " (today)" : ""}
                </p>
                <ul className="grid gap-1 text-sm">
                  {d.bookings.map((entry) => (
                    <CallEntry key={entry.id} entry={entry} listed={listedIds.has(entry.id)} />
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
