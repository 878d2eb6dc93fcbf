import { Link } from "react-router";
import { bookingByLink } from "~/features/booking/booking.server";
import { BookingSummary } from "~/features/booking/booking-summary";
import { bookingView } from "~/features/booking/booking-view.server";
import { STATIC_PAGE } from "~/lib/hydration";
import { getDb } from "~/server/db/client.server";
import { withPageFailures } from "~/server/failure-reply.server";
import type { Route } from "./+types/book-confirmed";

export const handle = STATIC_PAGE;

export function meta() {
  return [{ title: "Your call is booked" }, { name: "robots", content: "noindex" }];
}

/** The confirmation page (a signed link): the booking, its .ics and calendar links, and how to change it. */
export async function loader({ request, params }: Route.LoaderArgs) {
  const db = getDb();
  const token = new URL(request.url).searchParams.get("t");
  const booking = await withPageFailures(() => bookingByLink(db, params.id, token));
  return { view: await bookingView(db, booking) };
}

export default function BookConfirmed({ loaderData: { view } }: Route.ComponentProps) {
  return (
    <section className="mx-auto max-w-3xl px-4 py-16">
      <h1 className="text-4xl font-bold tracking-tight">
        {view.status === "confirmed" ? "Your call is booked" : "This call was cancelled"}
      </h1>
      {view.status === "confirmed" ? (
        <p className="mt-4" role="status">
          Thank you! A confirmation with a calendar invite is on its way to your inbox. Should it not arrive, everything is here too.
        </p>
      ) : null}
      <div className="mt-8 rounded-lg border p-6">
        <BookingSummary view={view} />
      </div>
      {view.status === "confirmed" ? (
        <ul className="mt-6 flex flex-wrap gap-3">
          <li>
            <a href={view.links.ics} download="call.ics" className="inline-block rounded-md border px-4 py-2 font-medium hover:bg-accent">
              Download .ics
            </a>
          </li>
          <li>
            <a
              href={view.links.google}
              rel="noopener noreferrer"
              className="inline-block rounded-md border px-4 py-2 font-medium hover:bg-accent"
            >
              Add to Google Calendar
            </a>
          </li>
          {view.changeable ? (
            <li>
              <Link to={view.links.manage} className="inline-block rounded-md border px-4 py-2 font-medium hover:bg-accent">
                Cancel or reschedule
              </Link>
            </li>
          ) : null}
        </ul>
      ) : (
        <p className="mt-6">
          <Link to="/book" className="text-primary underline underline-offset-4">
            Book another time
          </Link>
        </p>
      )}
    </section>
  );
}
