import { data, Link, redirect } from "react-router";
import { z } from "zod";
import { Button } from "~/components/ui/button";
import { activeCallType, bookingByLink, cancelBookingByVisitor, rescheduleBooking } from "~/features/booking/booking.server";
import { BookingSummary } from "~/features/booking/booking-summary";
import { bookingView } from "~/features/booking/booking-view.server";
import { pickerData, pickerQueryOf } from "~/features/booking/slot-picker.server";
import { pickerHref, SlotPicker } from "~/features/booking/slot-picker";
import { timeZoneChoices } from "~/features/booking/time-zones";
import { STATIC_PAGE } from "~/lib/hydration";
import { getDb } from "~/server/db/client.server";
import { errorAnswer, parseOrThrow } from "~/server/errors.server";
import { withPageFailures } from "~/server/failure-reply.server";
import { readForm } from "~/server/form.server";
import type { Route } from "./+types/book-manage";

export const handle = STATIC_PAGE;

const MANAGE_FORM_NOT_UNDERSTOOD = "This form was not understood: open the link from your email again and choose a time or Cancel.";

export function meta() {
  return [{ title: "Cancel or reschedule your call" }, { name: "robots", content: "noindex" }];
}

async function pageData(request: Request, id: string) {
  const db = getDb();
  const url = new URL(request.url);
  const token = url.searchParams.get("t") ?? "";
  const booking = await withPageFailures(() => bookingByLink(db, id, token));
  const view = await bookingView(db, booking);
  const query = pickerQueryOf(url);
  const picker = view.changeable
    ? await pickerData(
        db,
        await withPageFailures(() => activeCallType(db, booking.callTypeSlug)),
        { ...query, tz: query.tz ?? view.visitorTimeZone },
        { exceptBookingId: id },
      )
    : null;
  return { token, view, picker, allZones: url.searchParams.get("zones") === "all" };
}

/** The signed link from the emails: cancel, or pick another time (the link ends when the call starts). */
export async function loader({ request, params }: Route.LoaderArgs) {
  return pageData(request, params.id);
}

/** The page's two forms: the link's token (`t`), then either `intent=cancel` or the picked `start`. */
const manageFormSchema = z.object({ t: z.string().default(""), intent: z.string().optional(), start: z.string().default("") });

export async function action({ request, params }: Route.ActionArgs) {
  const form = await withPageFailures(() => readForm(request));
  const db = getDb();
  try {
    const { t: token, intent, start } = parseOrThrow(manageFormSchema, Object.fromEntries(form), MANAGE_FORM_NOT_UNDERSTOOD);
    if (intent === "cancel") await cancelBookingByVisitor(db, params.id, token);
    else await rescheduleBooking(db, params.id, token, start);
    return redirect(`/book/confirmed/${params.id}?t=${encodeURIComponent(token)}`, 303);
  } catch (error) {
    const { status, message, headers } = errorAnswer(error);
    if (status === 403 || status === 404) return data({ error: message, page: null }, { status, headers });
    return data({ error: message, page: await pageData(request, params.id) }, { status, headers });
  }
}

export default function BookManage({ loaderData, actionData }: Route.ComponentProps) {
  const page = actionData?.page ?? (actionData ? null : loaderData);
  const error = actionData?.error;
  return (
    <section className="mx-auto max-w-5xl px-4 py-16">
      <h1 className="text-4xl font-bold tracking-tight">Cancel or reschedule</h1>
      {error ? (
        <p role="alert" className="mt-6 rounded-md border border-destructive/40 bg-destructive/5 p-3 font-semibold text-destructive">
          {error}
        </p>
      ) : null}
      {page ? (
        <>
          <div className="mt-8 max-w-3xl rounded-lg border p-6">
            <BookingSummary view={page.view} />
          </div>
          {page.view.changeable && page.picker ? (
            <>
              <form method="post" className="mt-6">
                <input type="hidden" name="t" value={page.token} />
                <input type="hidden" name="intent" value="cancel" />
                <Button type="submit" variant="destructive">
                  Cancel this call
                </Button>
              </form>
              <h2 className="mt-12 text-2xl font-semibold">Pick another time</h2>
              <div className="mt-6 space-y-8">
                <SlotPicker
                  picker={page.picker}
                  zones={timeZoneChoices(page.picker.timeZone, page.picker.ownerTimeZone, page.allZones)}
                  allZones={page.allZones}
                  hidden={{ t: page.token }}
                  hrefFor={(change) => pickerHref(`/book/manage/${page.view.id}`, { t: page.token, tz: page.picker?.timeZone }, change)}
                />
                {page.picker.selectedSlot ? (
                  <form method="post" className="max-w-xl space-y-4 rounded-lg border p-6">
                    <input type="hidden" name="t" value={page.token} />
                    <input type="hidden" name="intent" value="reschedule" />
                    <input type="hidden" name="start" value={page.picker.selectedSlot.start} />
                    <p>
                      Move the call to <strong>{page.picker.selectedSlot.longLabel}</strong> ({page.picker.timeZone.replace(/_/g, " ")})?
                    </p>
                    <Button type="submit">Reschedule to this time</Button>
                  </form>
                ) : null}
              </div>
            </>
          ) : (
            <p className="mt-6">
              This call can no longer be changed here.{" "}
              <Link to="/book" className="text-primary underline underline-offset-4">
                Book another time
              </Link>
            </p>
          )}
        </>
      ) : null}
    </section>
  );
}
