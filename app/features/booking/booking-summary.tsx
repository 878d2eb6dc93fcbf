import type { BookingView } from "./booking-view.server";

/** A booking's what, when (the visitor's zone and the owner's) and where, for the visitor's pages. */
export function BookingSummary({ view }: { view: BookingView }) {
  return (
    <dl className="grid gap-x-6 gap-y-2 sm:grid-cols-[10rem_1fr]">
      <dt className="font-semibold">Call</dt>
      <dd>
        {view.callTypeName} · {view.durationMinutes} minutes
      </dd>
      <dt className="font-semibold">When</dt>
      <dd>
        <time dateTime={view.start}>{view.visitorLabel}</time> ({view.visitorTimeZone.replace(/_/g, " ")})
        {view.visitorTimeZone !== view.ownerTimeZone ? (
          <span className="block text-sm text-muted-foreground">
            {view.ownerLabel} ({view.ownerTimeZone.replace(/_/g, " ")})
          </span>
        ) : null}
      </dd>
      <dt className="font-semibold">Where</dt>
      <dd>{view.location}</dd>
      <dt className="font-semibold">Status</dt>
      <dd>{view.statusText}</dd>
    </dl>
  );
}
