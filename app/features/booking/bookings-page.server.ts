import type { AdminFormContext } from "~/features/admin/admin-form.server";
import type { Actor } from "~/lib/permissions";
import type { Db } from "~/server/db/client.server";
import { isMailConfigured } from "~/server/mail-settings.server";
import { redirectWithToast } from "~/server/toast.server";
import { listCallTypes, readAvailabilityText, saveAvailability, saveCallType } from "./booking-admin.server";
import { cancelBookingByOwner, listBookings, ownerTimeZone, setNoShow, type Booking } from "./booking.server";
import { bookingsMonthView } from "./bookings-month.server";
import { feedLinkState, resetFeedLink, turnOffFeedLink } from "./bookings-feed.server";
import { addCaldavCalendar, addCalendarFeed, listCalendarFeeds, refreshCalendarFeedNow, removeCalendarFeed } from "./calendar-feeds.server";
import { STATUS_TEXT } from "./booking-view.server";
import { longLabel } from "./slot-picker.server";

/** How the owner reads a booking's status (the visitor's page says "by you" for the visitor). */
function ownerStatus(b: Pick<Booking, "status" | "rescheduleCount">): string {
  if (b.status === "confirmed") return b.rescheduleCount > 0 ? "Confirmed (rescheduled)" : STATUS_TEXT.confirmed;
  return b.status === "cancelled-by-visitor" ? "Cancelled by visitor" : "Cancelled by you";
}

function bookingRow(b: Booking, zone: string) {
  return {
    id: b.id,
    when: longLabel(b.startsAt.getTime(), zone),
    start: b.startsAt.toISOString(),
    callTypeName: b.callTypeName,
    name: b.name,
    email: b.email,
    phone: b.phone,
    company: b.company,
    topic: b.topic,
    notes: b.notes,
    visitorTimeZone: b.visitorTimeZone,
    status: ownerStatus(b),
    confirmed: b.status === "confirmed",
    noShow: b.noShow,
    cancelMessage: b.cancelMessage,
  };
}

/**
 * Everything the admin's Bookings page shows: the month calendar (`month`, "YYYY-MM", else the
 * current one), upcoming and past calls, availability, call types, calendars.
 */
export async function bookingsPageView(
  db: Db,
  actor: Actor,
  { month = null, now = Date.now() }: { month?: string | null; now?: number } = {},
) {
  const zone = ownerTimeZone();
  const [calendar, upcoming, past, callTypes, availability, mailConfigured, calendarFeeds, feedLink] = await Promise.all([
    bookingsMonthView(db, actor, month, now),
    listBookings(db, actor, "upcoming", 100, now),
    listBookings(db, actor, "past", 50, now),
    listCallTypes(db, actor),
    readAvailabilityText(db, actor),
    isMailConfigured(db),
    listCalendarFeeds(db, actor),
    feedLinkState(db, actor),
  ]);
  return {
    zone,
    mailConfigured,
    calendar,
    upcoming: upcoming.map((b) => bookingRow(b, zone)),
    past: past.map((b) => bookingRow(b, zone)),
    callTypes: callTypes.map((t) => ({ ...t, createdAt: t.createdAt.toISOString(), updatedAt: t.updatedAt.toISOString() })),
    availability,
    calendarFeeds,
    feedLink,
  };
}

export type BookingsPageView = Awaited<ReturnType<typeof bookingsPageView>>;
export type BookingRow = BookingsPageView["upcoming"][number];
export type CallTypeRow = BookingsPageView["callTypes"][number];
export type CalendarFeedRow = BookingsPageView["calendarFeeds"][number];

const done = (title: string) => redirectWithToast("/admin/bookings", { title, type: "success" });

/** The Bookings page's forms, by `intent` (run by the admin form pipeline, handleAdminForm). */
export const bookingsIntents = {
  cancel: async ({ actor, db, form }: AdminFormContext) => {
    await cancelBookingByOwner(db, actor, String(form.id ?? ""), String(form.message ?? ""));
    return done("Call cancelled; the visitor is told by email");
  },
  "no-show": async ({ actor, db, form }: AdminFormContext) => {
    await setNoShow(db, actor, String(form.id ?? ""), form.noShow === "true");
    return done(form.noShow === "true" ? "Marked as no-show" : "No-show mark removed");
  },
  availability: async ({ actor, db, form }: AdminFormContext) => {
    await saveAvailability(db, actor, form.availability);
    return done("Availability saved");
  },
  "calendar-feed": async ({ actor, db, form }: AdminFormContext) => {
    await addCalendarFeed(db, actor, form);
    return done("Calendar added");
  },
  "caldav-calendar": async ({ actor, db, form }: AdminFormContext) => {
    await addCaldavCalendar(db, actor, form);
    return done("Calendar added");
  },
  "calendar-feed-refresh": async ({ actor, db, form }: AdminFormContext) => {
    await refreshCalendarFeedNow(db, actor, form.id);
    return done("Calendar read");
  },
  "calendar-feed-remove": async ({ actor, db, form }: AdminFormContext) => {
    await removeCalendarFeed(db, actor, form.id);
    return done("Calendar removed");
  },
  // The new address is the reply itself (shown once), not a redirect: only its hash is stored.
  "feed-link-reset": async ({ actor, db }: AdminFormContext) => ({ ok: true as const, feedAddress: await resetFeedLink(db, actor) }),
  "feed-link-off": async ({ actor, db }: AdminFormContext) => {
    await turnOffFeedLink(db, actor);
    return done("Calendar address turned off");
  },
  "call-type": async ({ actor, db, form, formData }: AdminFormContext) => {
    await saveCallType(db, actor, { ...form, questions: formData.getAll("questions") });
    return done("Call type saved");
  },
};
