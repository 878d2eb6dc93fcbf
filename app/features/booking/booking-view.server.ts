import type { Db } from "~/server/db/client.server";
import { bookingLinks, googleLinkOf, inviteEventOf, ownerTimeZone, type Booking } from "./booking.server";
import { longLabel } from "./slot-picker.server";

export const STATUS_TEXT: Record<Booking["status"], string> = {
  confirmed: "Confirmed",
  "cancelled-by-visitor": "Cancelled by you",
  "cancelled-by-owner": "Cancelled by me",
};

/** What the visitor's pages show of a booking, with its links (relative to this site). */
export async function bookingView(db: Db, booking: Booking, now = Date.now()) {
  const visitorTimeZone = booking.visitorTimeZone ?? ownerTimeZone();
  const invite = await inviteEventOf(db, booking);
  const links = await bookingLinks(db, booking, "");
  const start = booking.startsAt.getTime();
  return {
    id: booking.id,
    callTypeName: booking.callTypeName,
    durationMinutes: Math.round((booking.endsAt.getTime() - start) / 60_000),
    start: booking.startsAt.toISOString(),
    visitorTimeZone,
    ownerTimeZone: ownerTimeZone(),
    visitorLabel: longLabel(start, visitorTimeZone),
    ownerLabel: longLabel(start, ownerTimeZone()),
    location: invite.location,
    status: booking.status,
    statusText: booking.status === "confirmed" && booking.rescheduleCount > 0 ? "Confirmed (rescheduled)" : STATUS_TEXT[booking.status],
    changeable: booking.status === "confirmed" && start > now,
    links: { ...links, google: googleLinkOf(invite) },
  };
}

export type BookingView = Awaited<ReturnType<typeof bookingView>>;
