import { Link } from "react-router";
import { Button } from "~/components/ui/button";
import { BOOKING_TEXT } from "./booking-schema";
import { pickerHref } from "./slot-picker";
import type { PickerData } from "./slot-picker.server";

/** The home page's built-in booking: the next free days with their first times as links into /book. */
export function ReachMeSlots({ booking }: { booking: PickerData }) {
  const zone = booking.timeZone.replace(/_/g, " ");
  const href = (change: { day?: string; slot?: string }) => pickerHref("/book", { type: booking.callType.slug }, change);
  return (
    <>
      <p className="mt-2 text-muted-foreground">
        {booking.callType.name}: {booking.callType.durationMinutes} minutes. {booking.callType.description}
      </p>
      {booking.paused ? (
        <p className="mt-6">
          {BOOKING_TEXT.paused.replace(/contact form\.$/, "")}
          <Link to="/contact" className="text-primary underline underline-offset-4">
            contact form
          </Link>
          .
        </p>
      ) : booking.days.length === 0 ? (
        <p className="mt-6">No times are free at the moment. Please send me a message and we will find one.</p>
      ) : (
        <div className="mt-8 grid gap-6 md:grid-cols-3">
          {booking.days.map((day) => (
            <section key={day.day} aria-labelledby={`reach-day-${day.day}`} className="rounded-lg border bg-background p-4">
              <h3 id={`reach-day-${day.day}`} className="font-semibold">
                <Link to={href({ day: day.day })} className="hover:underline">
                  {day.label}
                </Link>
              </h3>
              <ul className="mt-3 grid grid-cols-3 gap-2">
                {(day.first ?? []).map((slot) => (
                  <li key={slot.start}>
                    <Link
                      to={href({ day: day.day, slot: slot.start })}
                      className="block rounded-md border px-2 py-1 text-center text-sm hover:bg-accent"
                    >
                      <time dateTime={slot.start}>{slot.label}</time>
                    </Link>
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </div>
      )}
      <p className="mt-2 text-sm text-muted-foreground">Times in {zone}; the booking page shows them in yours.</p>
      <Button asChild size="lg" className="mt-6">
        <Link to={href({})}>See all times</Link>
      </Button>
    </>
  );
}
