import { bookingByLink, inviteEventOf } from "~/features/booking/booking.server";
import { calendarText } from "~/features/booking/invite.server";
import { getDb } from "~/server/db/client.server";
import { withPageFailures } from "~/server/failure-reply.server";
import type { Route } from "./+types/book-ics";

/** The booking as a .ics file (signed link): the same UID and SEQUENCE as the emailed invites. */
export async function loader({ request, params }: Route.LoaderArgs) {
  const db = getDb();
  const booking = await withPageFailures(() => bookingByLink(db, params.id, new URL(request.url).searchParams.get("t")));
  const event = await inviteEventOf(db, booking);
  return new Response(calendarText(event.cancelled ? "CANCEL" : "PUBLISH", [event]), {
    headers: {
      "Content-Type": "text/calendar; charset=utf-8",
      "Content-Disposition": 'attachment; filename="call.ics"',
      "Cache-Control": "private, no-store",
    },
  });
}
