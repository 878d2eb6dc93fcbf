import { data, Link, redirect } from "react-router";
import { recordConversion } from "~/features/analytics/attribution.server";
import { BookingForm, type BookingFormReply } from "~/features/booking/booking-form";
import { BOOKING_TEXT } from "~/features/booking/booking-schema";
import { activeCallTypes, callTypeOf, createBooking } from "~/features/booking/booking.server";
import { pickerData, pickerQueryOf } from "~/features/booking/slot-picker.server";
import { pickerHref, SlotPicker } from "~/features/booking/slot-picker";
import { timeZoneChoices } from "~/features/booking/time-zones";
import { getVerificationConfig } from "~/features/verification/verification.server";
import { clientIp } from "~/server/request.server";
import { readForm } from "~/server/form.server";
import { errorAnswer } from "~/server/errors.server";
import { withPageFailures } from "~/server/failure-reply.server";
import { getDb } from "~/server/db/client.server";
import { expirePageAt } from "~/server/page-cache.server";
import { seoContext, seoMeta } from "~/lib/seo";
import { STATIC_PAGE } from "~/lib/hydration";
import type { Route } from "./+types/book";

/** No React for anonymous visitors: links and a form post; app/enhance adds the zone and the verification widget. */
export const handle = STATIC_PAGE;

export function meta({ matches }: Route.MetaArgs) {
  return seoMeta(seoContext(matches), {
    title: "Book a call",
    description: "Pick a time for a call: free times are shown in your time zone.",
    path: "/book",
  });
}

async function pageData(request: Request) {
  const url = new URL(request.url);
  const db = getDb();
  const types = await activeCallTypes(db);
  const allZones = url.searchParams.get("zones") === "all";
  if (types.length === 0) return { types: [], picker: null, allZones, verification: getVerificationConfig() };
  const callType = await withPageFailures(async () => callTypeOf(types, url.searchParams.get("type")));
  const picker = await pickerData(db, callType, pickerQueryOf(url));
  return {
    types: types.map((t) => ({ slug: t.slug, name: t.name, durationMinutes: t.durationMinutes })),
    picker,
    allZones,
    verification: getVerificationConfig(),
  };
}

export async function loader({ request }: Route.LoaderArgs) {
  const page = await pageData(request);
  // The shared render (the page cache, guarded by the slot stamp) is good until a slot leaves the notice or booking pauses.
  expirePageAt(request, page.picker?.changesAt ?? null);
  return page;
}

export async function action({ request }: Route.ActionArgs) {
  const form = await withPageFailures(() => readForm(request));
  const values: Record<string, string> = {};
  for (const [key, value] of form) if (typeof value === "string" && key !== "verificationToken") values[key] = value;
  try {
    const booked = await createBooking(getDb(), { ...values, verificationToken: form.get("verificationToken") }, clientIp(request));
    if (!booked.token) return data({ reply: null, page: null, booked: true });
    await recordConversion(getDb(), "booking", booked.id, request, true);
    return redirect(`/book/confirmed/${booked.id}?t=${encodeURIComponent(booked.token)}`, 303);
  } catch (error) {
    const { status, message, fieldErrors, headers } = errorAnswer(error);
    const reply: BookingFormReply = {
      values,
      fieldErrors: fieldErrors ?? {},
      formError: status >= 500 ? "Something went wrong. Please try again." : message,
    };
    return data({ reply, page: await pageData(request), booked: false }, { status, headers });
  }
}

export default function Book({ loaderData, actionData }: Route.ComponentProps) {
  const page = actionData?.page ?? loaderData;
  const reply = actionData?.reply ?? undefined;
  if (actionData?.booked) {
    return (
      <section className="mx-auto max-w-3xl px-4 py-16" role="status">
        <h1 className="text-4xl font-bold tracking-tight">Your call is booked</h1>
        <p className="mt-4">Thank you. The details are on their way to your inbox.</p>
      </section>
    );
  }
  const { picker, types } = page;
  const taken = reply?.formError === BOOKING_TEXT.taken;
  return (
    <section className="mx-auto max-w-5xl px-4 py-16">
      <h1 className="text-4xl font-bold tracking-tight">Book a call</h1>
      {!picker ? (
        <p className="mt-4">
          Calls cannot be booked here at the moment. Please use the{" "}
          <Link to="/contact" className="text-primary underline underline-offset-4">
            contact form
          </Link>
          .
        </p>
      ) : (
        <>
          {types.length > 1 ? (
            <nav aria-label="Kinds of call" className="mt-6">
              <ul className="flex flex-wrap gap-2">
                {types.map((t) => (
                  <li key={t.slug}>
                    <Link
                      to={pickerHref("/book", { type: t.slug, tz: picker.timeZone }, {})}
                      aria-current={t.slug === picker.callType.slug ? "page" : undefined}
                      className="block rounded-full border px-3 py-1 text-sm aria-[current=page]:border-primary aria-[current=page]:bg-primary/10"
                    >
                      {t.name} · {t.durationMinutes} min
                    </Link>
                  </li>
                ))}
              </ul>
            </nav>
          ) : null}
          <h2 className="mt-6 text-2xl font-semibold">{picker.callType.name}</h2>
          <p className="mt-1 text-muted-foreground">
            {picker.callType.durationMinutes} minutes. {picker.callType.description}
          </p>
          {picker.paused ? (
            <p role="status" className="mt-6 rounded-md border p-4">
              {BOOKING_TEXT.paused.replace(/contact form\.$/, "")}
              <Link to="/contact" className="text-primary underline underline-offset-4">
                contact form
              </Link>
              .
            </p>
          ) : (
            <div className="mt-8 space-y-10">
              {reply?.formError && (taken || !picker.selectedSlot) ? (
                <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/5 p-3 font-semibold text-destructive">
                  {reply.formError}
                </p>
              ) : null}
              <SlotPicker
                picker={picker}
                zones={timeZoneChoices(picker.timeZone, picker.ownerTimeZone, page.allZones)}
                allZones={page.allZones}
                hidden={{ type: picker.callType.slug }}
                hrefFor={(change) => pickerHref("/book", { type: picker.callType.slug, tz: picker.timeZone }, change)}
              />
              {picker.selectedSlot && !taken ? (
                <div className="max-w-xl rounded-lg border p-6">
                  <BookingForm picker={{ ...picker, selectedSlot: picker.selectedSlot }} verification={page.verification} reply={reply} />
                </div>
              ) : null}
            </div>
          )}
        </>
      )}
    </section>
  );
}
