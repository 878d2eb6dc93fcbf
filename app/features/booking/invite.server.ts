import ICAL from "ical.js";
import { formatInZone } from "~/lib/time-zone";

/**
 * iCalendar (RFC 5545) for bookings, written with ical.js: invites (METHOD:REQUEST), cancellations
 * (METHOD:CANCEL, STATUS:CANCELLED), downloads and the owner's private feed (METHOD:PUBLISH). The
 * UID is the booking's for its whole life and SEQUENCE rises with each change, so calendar apps
 * update or remove the event they hold instead of adding a second one.
 */

export type InviteMethod = "REQUEST" | "CANCEL" | "PUBLISH";

export interface InviteEvent {
  uid: string;
  sequence: number;
  start: Date;
  end: Date;
  summary: string;
  /** Where the call happens (a video link, "Phone: …", or a note that a link follows). */
  location: string;
  description: string;
  cancelled: boolean;
  organizer: { name: string; email: string };
  attendee: { name: string; email: string };
  /** The owner's zone, named in the description (times themselves are in UTC). */
  timeZone: string;
  updatedAt: Date;
}

const PRODID = "-//Portfolio site//Booking calls//EN";

function person(kind: "organizer" | "attendee", who: { name: string; email: string }, attendee: boolean): ICAL.Property {
  const property = new ICAL.Property(kind);
  property.setParameter("cn", who.name.replace(/[\r\n"]+/g, " "));
  if (attendee) {
    property.setParameter("role", "REQ-PARTICIPANT");
    property.setParameter("partstat", "ACCEPTED");
    property.setParameter("rsvp", "FALSE");
  }
  property.setValue(`mailto:${who.email}`);
  return property;
}

function vevent(event: InviteEvent): ICAL.Component {
  const component = new ICAL.Component("vevent");
  const utc = (date: Date) => ICAL.Time.fromJSDate(date, true);
  component.updatePropertyWithValue("uid", event.uid);
  component.updatePropertyWithValue("sequence", event.sequence);
  component.updatePropertyWithValue("dtstamp", utc(event.updatedAt));
  component.updatePropertyWithValue("dtstart", utc(event.start));
  component.updatePropertyWithValue("dtend", utc(event.end));
  component.updatePropertyWithValue("summary", event.summary);
  component.updatePropertyWithValue("location", event.location);
  component.updatePropertyWithValue(
    "description",
    `${event.description}\n\nWhen: ${formatInZone(event.start, event.timeZone)} – ${formatInZone(event.end, event.timeZone)}`,
  );
  component.updatePropertyWithValue("status", event.cancelled ? "CANCELLED" : "CONFIRMED");
  component.updatePropertyWithValue("transp", event.cancelled ? "TRANSPARENT" : "OPAQUE");
  component.addProperty(person("organizer", event.organizer, false));
  component.addProperty(person("attendee", event.attendee, true));
  return component;
}

/** A subscribed calendar's name and how often calendar apps should read it again. */
export interface FeedHeader {
  name: string;
  refreshMinutes: number;
}

/** A VCALENDAR with the events, as text with CRLF line ends and folded lines. */
export function calendarText(method: InviteMethod, events: readonly InviteEvent[], feed?: FeedHeader): string {
  const calendar = new ICAL.Component(["vcalendar", [], []]);
  calendar.updatePropertyWithValue("prodid", PRODID);
  calendar.updatePropertyWithValue("version", "2.0");
  calendar.updatePropertyWithValue("calscale", "GREGORIAN");
  calendar.updatePropertyWithValue("method", method);
  if (feed) {
    calendar.updatePropertyWithValue("x-wr-calname", feed.name);
    // RFC 7986's REFRESH-INTERVAL and the older X-PUBLISHED-TTL most apps still read.
    const every = ICAL.Duration.fromSeconds(feed.refreshMinutes * 60);
    const refresh = new ICAL.Property("refresh-interval");
    refresh.setParameter("value", "DURATION");
    refresh.setValue(every);
    calendar.addProperty(refresh);
    calendar.updatePropertyWithValue("x-published-ttl", every.toString());
  }
  for (const event of events) calendar.addSubcomponent(vevent(event));
  return `${calendar.toString()}\r\n`;
}

/** "Add to Google Calendar": a link that opens Google's own form, filled in; the page itself makes no request. */
export function googleCalendarLink(event: Pick<InviteEvent, "start" | "end" | "summary" | "location" | "description">): string {
  const stamp = (date: Date) =>
    date
      .toISOString()
      .replace(/[-:]/g, "")
      .replace(/\.\d{3}/, "");
  const params = new URLSearchParams({
    action: "TEMPLATE",
    text: event.summary,
    dates: `${stamp(event.start)}/${stamp(event.end)}`,
    details: event.description,
    location: event.location,
  });
  return `https://calendar.google.com/calendar/render?${params.toString()}`;
}
