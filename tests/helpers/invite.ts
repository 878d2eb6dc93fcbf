import ICAL from "ical.js";

/** Each event of an iCalendar text, read with a real parser (ical.js), as the booking tests check them. */
export function parseCalendar(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  const method = String(calendar.getFirstPropertyValue("method"));
  const events = calendar.getAllSubcomponents("vevent").map((event) => ({
    method,
    uid: String(event.getFirstPropertyValue("uid")),
    sequence: Number(event.getFirstPropertyValue("sequence")),
    status: String(event.getFirstPropertyValue("status")),
    start: (event.getFirstPropertyValue("dtstart") as ICAL.Time).toJSDate().getTime(),
    end: (event.getFirstPropertyValue("dtend") as ICAL.Time).toJSDate().getTime(),
    summary: String(event.getFirstPropertyValue("summary")),
    description: String(event.getFirstPropertyValue("description") ?? ""),
    organizer: String(event.getFirstPropertyValue("organizer")),
    attendee: String(event.getFirstPropertyValue("attendee")),
  }));
  return { name: String(calendar.getFirstPropertyValue("x-wr-calname") ?? ""), method, events };
}

/** The one event of an iCalendar text (an invite). */
export function parseInvite(text: string) {
  const [event] = parseCalendar(text).events;
  if (!event) throw new Error("no VEVENT");
  return event;
}
