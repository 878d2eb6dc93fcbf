import type { Db } from "~/server/db/client.server";
import { seedDemoOnce } from "~/server/content-rows.server";
import { bookingCallTypes, bookingWeeklyHours } from "~/server/db/schema.server";

/** Demo booking: one active "Intro call" and weekday hours, so a new site offers real slots. Once per database, with SEED_DEMO_CONTENT. */
export function seedDemoBooking(db: Db, seedDemoContent: boolean): Promise<boolean> {
  return seedDemoOnce(db, seedDemoContent, "seeded_booking", async (tx) => {
    await tx.insert(bookingCallTypes).values({
      slug: "intro-call",
      name: "Intro call",
      description: "A free 30-minute call to talk about your product, project or application.",
      durationMinutes: 30,
      incrementMinutes: 30,
      bufferAfterMinutes: 10,
      minimumNoticeMinutes: 720,
      horizonDays: 60,
      dailyCap: 4,
      location: "link-later",
      questions: ["company", "topic"],
    });
    // Monday to Friday, 09:00–12:00 and 14:00–17:00 in the site's zone.
    await tx.insert(bookingWeeklyHours).values(
      [1, 2, 3, 4, 5].flatMap((weekday) => [
        { weekday, startMinute: 9 * 60, endMinute: 12 * 60 },
        { weekday, startMinute: 14 * 60, endMinute: 17 * 60 },
      ]),
    );
  });
}
