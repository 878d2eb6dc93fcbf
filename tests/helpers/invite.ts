import ICAL from "ical.js";

/** The one event of an iCalendar text, read with a real parser (ical.js), as the booking tests check it. */
export function parseInvite(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  const event = calendar.getFirstSubcomponent("vevent");
  if (!event) throw new Error("no VEVENT");
  return {
    method: String(calendar.getFirstPropertyValue("method")),
    uid: String(event.getFirstPropertyValue("uid")),
    sequence: Number(event.getFirstPropertyValue("sequence")),
    status: String(event.getFirstPropertyValue("status")),
    start: (event.getFirstPropertyValue("dtstart") as ICAL.Time).toJSDate().getTime(),
    organizer: String(event.getFirstPropertyValue("organizer")),
    attendee: String(event.getFirstPropertyValue("attendee")),
  };
}
