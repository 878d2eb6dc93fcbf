import type { ReactNode } from "react";
import { Form } from "react-router";
import { useFailureToast } from "~/components/admin-list";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Textarea } from "~/components/ui/textarea";
import { BookingsFeedLink } from "./bookings-feed-link";
import { BookingsMonth } from "./bookings-month";
import type { BookingRow, BookingsPageView, CalendarFeedRow } from "./bookings-page.server";
import { CallTypeForm } from "./call-type-form";

function BookingRows({
  rows,
  caption,
  upcoming,
  cameFrom,
}: {
  rows: BookingRow[];
  caption: string;
  upcoming: boolean;
  cameFrom: Record<string, string>;
}) {
  if (rows.length === 0) return <p className="mt-2 text-muted-foreground">None.</p>;
  return (
    <ul className="mt-4 grid gap-4" aria-label={caption}>
      {rows.map((b) => (
        <li key={b.id} id={`booking-${b.id}`} className="scroll-mt-4 rounded-lg border p-4" data-testid="booking-row">
          <p className="font-semibold">
            <time dateTime={b.start}>{b.when}</time> · {b.callTypeName}
          </p>
          <p>
            {b.name} &lt;{b.email}&gt;{b.phone ? ` · ${b.phone}` : ""}
            {b.visitorTimeZone ? <span className="text-muted-foreground"> · visitor in {b.visitorTimeZone}</span> : null}
          </p>
          {b.company ? <p>Company: {b.company}</p> : null}
          {b.topic ? <p>Topic: {b.topic}</p> : null}
          {b.notes ? <p className="whitespace-pre-wrap">Notes: {b.notes}</p> : null}
          {cameFrom[b.id] ? <p className="text-sm text-muted-foreground [overflow-wrap:anywhere]">{cameFrom[b.id]}</p> : null}
          <p className="mt-1 text-sm">
            Status: <strong data-testid="booking-status">{b.status}</strong>
            {b.noShow ? " · no-show" : ""}
            {b.cancelMessage ? ` · message: ${b.cancelMessage}` : ""}
          </p>
          <div className="mt-3 flex flex-wrap items-end gap-4">
            {upcoming && b.confirmed ? (
              <Form method="post" className="flex flex-wrap items-end gap-2">
                <input type="hidden" name="intent" value="cancel" />
                <input type="hidden" name="id" value={b.id} />
                <div className="grid gap-1">
                  <Label htmlFor={`cancel-message-${b.id}`}>Message to the visitor (optional)</Label>
                  <Input id={`cancel-message-${b.id}`} name="message" maxLength={1000} className="w-72" />
                </div>
                <Button type="submit" variant="destructive" size="sm">
                  Cancel call
                </Button>
              </Form>
            ) : null}
            {!upcoming && b.confirmed ? (
              <Form method="post">
                <input type="hidden" name="intent" value="no-show" />
                <input type="hidden" name="id" value={b.id} />
                <input type="hidden" name="noShow" value={b.noShow ? "false" : "true"} />
                <Button type="submit" variant="outline" size="sm">
                  {b.noShow ? "Remove no-show mark" : "Mark as no-show"}
                </Button>
              </Form>
            ) : null}
          </div>
        </li>
      ))}
    </ul>
  );
}

/** A form adding a busy-time source: its name, the source's own fields (`children`), the refresh interval. */
function CalendarSourceForm({
  intent,
  idPrefix,
  submitLabel,
  children,
}: {
  intent: string;
  idPrefix: string;
  submitLabel: string;
  children: ReactNode;
}) {
  return (
    <Form method="post" className="mt-4 grid max-w-2xl gap-2">
      <input type="hidden" name="intent" value={intent} />
      <Label htmlFor={`${idPrefix}-label`}>Calendar name</Label>
      <Input id={`${idPrefix}-label`} name="label" required maxLength={120} />
      {children}
      <Label htmlFor={`${idPrefix}-refresh`}>Read every (minutes)</Label>
      <Input id={`${idPrefix}-refresh`} name="refreshMinutes" type="number" min={5} max={1440} defaultValue={10} className="w-32" />
      <div>
        <Button type="submit">{submitLabel}</Button>
      </div>
    </Form>
  );
}

function CalendarFeeds({ feeds }: { feeds: CalendarFeedRow[] }) {
  // A calendar added renews the forms: its address and password do not stay in the fields.
  const formKey = feeds.map((f) => f.id).join(" ");
  return (
    <>
      <h2 className="mt-10 text-2xl font-semibold">Busy times from your calendar</h2>
      <p className="mt-1 text-sm text-muted-foreground">
        Paste your calendar&apos;s private address in iCal format (Google: &quot;Secret address in iCal format&quot;), or connect a CalDAV
        calendar with its user name and password. Times busy there are not offered. If a calendar cannot be read for three refresh
        intervals, booking pauses until it can.
      </p>
      {feeds.length === 0 ? <p className="mt-2 text-muted-foreground">No calendar connected.</p> : null}
      <ul className="mt-4 grid gap-4" aria-label="Connected calendars">
        {feeds.map((f) => (
          <li key={f.id} className="rounded-lg border p-4" data-testid="calendar-feed">
            <p className="font-semibold">
              {f.label}{" "}
              <span className="font-normal text-muted-foreground">
                · {f.kind === "caldav" ? `CalDAV, user ${f.username ?? ""}, ` : ""}
                {f.address}
              </span>
            </p>
            <p className="text-sm">
              {f.lastSuccessAt ? (
                <>
                  Last read <time dateTime={f.lastSuccessAt}>{f.lastSuccessAt.slice(0, 16).replace("T", " ")} UTC</time>: {f.busyCount} busy
                  times. Read every {f.refreshMinutes} minutes.
                </>
              ) : (
                "Not read yet."
              )}
            </p>
            {f.lastError ? (
              <p className="mt-1 text-sm text-destructive" data-testid="calendar-feed-error">
                Last attempt failed: {f.lastError}
              </p>
            ) : null}
            <div className="mt-3 flex flex-wrap gap-2">
              <Form method="post">
                <input type="hidden" name="intent" value="calendar-feed-refresh" />
                <input type="hidden" name="id" value={f.id} />
                <Button type="submit" variant="outline" size="sm" aria-label={`Read ${f.label} now`}>
                  Read now
                </Button>
              </Form>
              <Form method="post">
                <input type="hidden" name="intent" value="calendar-feed-remove" />
                <input type="hidden" name="id" value={f.id} />
                <Button type="submit" variant="destructive" size="sm" aria-label={`Remove ${f.label}`}>
                  Remove
                </Button>
              </Form>
            </div>
          </li>
        ))}
      </ul>
      <CalendarSourceForm key={`ics ${formKey}`} intent="calendar-feed" idPrefix="calendar-feed" submitLabel="Add calendar">
        <Label htmlFor="calendar-feed-url">Private iCal address</Label>
        <Input id="calendar-feed-url" name="url" type="url" required maxLength={2000} autoComplete="off" />
      </CalendarSourceForm>
      <h3 className="mt-6 text-lg font-semibold">Add a CalDAV calendar</h3>
      <p id="caldav-hint" className="mt-1 text-sm text-muted-foreground">
        The calendar&apos;s own address (e.g. Fastmail, Nextcloud, Radicale), and an app password where your provider offers one. The
        password is stored encrypted and never shown again.
      </p>
      <CalendarSourceForm key={`caldav ${formKey}`} intent="caldav-calendar" idPrefix="caldav" submitLabel="Add CalDAV calendar">
        <Label htmlFor="caldav-url">CalDAV calendar address</Label>
        <Input id="caldav-url" name="url" type="url" required maxLength={2000} autoComplete="off" aria-describedby="caldav-hint" />
        <Label htmlFor="caldav-username">User name</Label>
        <Input id="caldav-username" name="username" required maxLength={200} autoComplete="off" />
        <Label htmlFor="caldav-password">Password</Label>
        <Input id="caldav-password" name="password" type="password" required maxLength={1000} autoComplete="new-password" />
      </CalendarSourceForm>
    </>
  );
}

/** The admin's Bookings page; `failure` is a refused form's reply, shown as a toast. */
/** `cameFrom`: each booking's "Came from: …" (the visit that booked it), by booking id, where known. */
export function BookingsPage({
  view,
  failure,
  cameFrom = {},
  feedAddress,
}: {
  view: BookingsPageView;
  failure?: { error: string };
  cameFrom?: Record<string, string>;
  /** The calendar feed address just made (shown this once). */
  feedAddress?: string;
}) {
  useFailureToast(failure);
  const { upcoming, past, callTypes, availability, zone, mailConfigured, calendarFeeds, feedLink, calendar } = view;
  const listedIds = new Set([...upcoming, ...past].map((b) => b.id));
  return (
    <section className="max-w-5xl">
      <h1 className="text-3xl font-bold">Bookings</h1>
      <p className="mt-2 text-muted-foreground">Times in the site&apos;s time zone, {zone}. Visitors book at /book.</p>
      {!mailConfigured ? (
        <p role="status" className="mt-4 rounded-md border border-amber-500/50 bg-amber-500/10 p-3 text-sm">
          Email is not configured (SMTP_URL), so neither you nor visitors get booking emails or reminders. Booking still works: the
          visitor&apos;s confirmation page carries the .ics download and the cancel and reschedule links.
        </p>
      ) : null}
      <BookingsMonth view={calendar} zone={zone} listedIds={listedIds} />
      <h2 className="mt-10 text-2xl font-semibold">Upcoming</h2>
      <BookingRows rows={upcoming} caption="Upcoming calls" upcoming cameFrom={cameFrom} />
      <h2 className="mt-10 text-2xl font-semibold">Past</h2>
      <BookingRows rows={past} caption="Past calls" upcoming={false} cameFrom={cameFrom} />
      <h2 className="mt-10 text-2xl font-semibold">Availability</h2>
      <Form method="post" className="mt-4 grid max-w-2xl gap-2">
        <input type="hidden" name="intent" value="availability" />
        <Label htmlFor="availability">Weekly hours and date overrides, one a line</Label>
        <p id="availability-hint" className="text-sm text-muted-foreground">
          &quot;Mon 09:00-12:00, 14:00-17:00&quot; for weekly hours; &quot;2026-12-24 off&quot; or &quot;2026-12-24..2027-01-02 off&quot;
          for days off; &quot;2026-12-28 10:00-12:00&quot; for other hours on a date.
        </p>
        <Textarea
          id="availability"
          name="availability"
          rows={10}
          defaultValue={availability}
          aria-describedby="availability-hint"
          className="font-mono"
        />
        <div>
          <Button type="submit">Save availability</Button>
        </div>
      </Form>
      <BookingsFeedLink state={feedLink} newAddress={feedAddress} />
      <CalendarFeeds feeds={calendarFeeds} />
      <h2 className="mt-10 text-2xl font-semibold">Call types</h2>
      <p className="mt-1 text-sm text-muted-foreground">The first active one (by order) is the default, shown on the home page.</p>
      <div className="mt-4 grid gap-6">
        {callTypes.map((t) => (
          <CallTypeForm key={t.id} type={t} />
        ))}
        <h3 className="text-lg font-semibold">Add a call type</h3>
        <CallTypeForm type={null} />
      </div>
    </section>
  );
}
