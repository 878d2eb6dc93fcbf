import { bookingsFeed } from "~/features/booking/bookings-feed.server";
import { getDb } from "~/server/db/client.server";
import { apiFailure } from "~/server/failure-reply.server";
import { clientIp } from "~/server/request.server";
import type { Route } from "./+types/bookings-calendar";

/**
 * GET /api/bookings/calendar.ics?token=… — the owner's private calendar feed of bookings. The secret
 * in the address is the only credential (calendar apps send no cookie); a wrong one is 404.
 */
export async function loader({ request }: Route.LoaderArgs) {
  try {
    const text = await bookingsFeed(getDb(), new URL(request.url).searchParams.get("token"), clientIp(request));
    return new Response(text, {
      headers: {
        "Content-Type": "text/calendar; charset=utf-8",
        "Content-Disposition": 'inline; filename="bookings.ics"',
        "Cache-Control": "private, no-store",
        "X-Robots-Tag": "noindex",
      },
    });
  } catch (error) {
    return apiFailure(error);
  }
}
