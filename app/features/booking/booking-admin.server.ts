import { asc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { canManageBookings, type Actor } from "~/lib/permissions";
import { authorize } from "~/server/authorize.server";
import { bumpContentVersion } from "~/server/content-version.server";
import type { Db } from "~/server/db/client.server";
import { hasPgErrorCode, UNIQUE_VIOLATION } from "~/server/db/pg-errors.server";
import { BOOKING_QUESTIONS, bookingCallTypes, bookingDateOverrides, bookingWeeklyHours, CALL_LOCATIONS } from "~/server/db/schema.server";
import { ConflictError, NotFoundError, ValidationError, parseOrThrow } from "~/server/errors.server";
import { availabilityText, parseAvailability } from "./availability-text";
import { BOOKINGS_FORBIDDEN } from "./booking-schema";
import { overrideColumns, weeklyColumns } from "./booking.server";

/** The owner's side of booking: call types and availability (administrators only). */

export async function readAvailabilityText(db: Db, actor: Actor | null): Promise<string> {
  authorize(actor, canManageBookings, BOOKINGS_FORBIDDEN);
  const [weekly, overrides] = await Promise.all([
    db.select(weeklyColumns).from(bookingWeeklyHours),
    db.select(overrideColumns).from(bookingDateOverrides),
  ]);
  return availabilityText({ weekly, overrides });
}

/** Replaces weekly hours and date overrides with the typed text (a mistake names its line and changes nothing). */
export async function saveAvailability(db: Db, actor: Actor | null, text: unknown): Promise<void> {
  authorize(actor, canManageBookings, BOOKINGS_FORBIDDEN);
  const raw = parseOrThrow(z.string().max(20_000, "At most 20,000 characters"), text ?? "");
  let parsed;
  try {
    parsed = parseAvailability(raw);
  } catch (error) {
    const message = error instanceof Error ? error.message : "Invalid availability";
    throw new ValidationError(message, { availability: [message] });
  }
  await db.transaction(async (tx) => {
    await tx.delete(bookingWeeklyHours);
    await tx.delete(bookingDateOverrides);
    if (parsed.weekly.length > 0) await tx.insert(bookingWeeklyHours).values(parsed.weekly);
    if (parsed.overrides.length > 0) await tx.insert(bookingDateOverrides).values(parsed.overrides);
    await bumpContentVersion(tx);
  });
}

const minutes = (label: string, min: number, max: number) =>
  z.coerce
    .number({ error: `${label} must be a number` })
    .int(`${label} must be whole minutes`)
    .min(min, `${label} must be at least ${min}`)
    .max(max, `${label} must be at most ${max}`);

const checkbox = z.preprocess((v) => v === "on" || v === "true" || v === true, z.boolean());

export const callTypeFormSchema = z
  .object({
    id: z
      .uuid()
      .optional()
      .or(z.literal("").transform(() => undefined)),
    name: z.string().trim().min(1, "Name is required").max(120, "Name must be at most 120 characters"),
    slug: z
      .string()
      .trim()
      .toLowerCase()
      .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, "Address name: lower-case letters, digits and dashes")
      .max(60),
    description: z.string().trim().max(1000, "Description must be at most 1000 characters").default(""),
    durationMinutes: minutes("Duration", 5, 480),
    incrementMinutes: minutes("Slot increment", 5, 480),
    bufferBeforeMinutes: minutes("Buffer before", 0, 240),
    bufferAfterMinutes: minutes("Buffer after", 0, 240),
    minimumNoticeMinutes: minutes("Minimum notice", 0, 43_200),
    horizonDays: z.coerce.number().int().min(1, "Horizon must be at least 1 day").max(365, "Horizon must be at most 365 days"),
    dailyCap: z.preprocess((v) => (v === "" || v === undefined ? null : v), z.coerce.number().int().min(1).max(100).nullable()),
    location: z.enum(CALL_LOCATIONS),
    videoUrl: z
      .string()
      .trim()
      .max(2000)
      .refine((v) => v === "" || /^https:\/\//.test(v), "The video link must start with https://")
      .default(""),
    questions: z.array(z.enum(BOOKING_QUESTIONS)).default([]),
    remind24h: checkbox,
    remind1h: checkbox,
    active: checkbox,
    displayOrder: z.coerce.number().int().min(0).max(1000).default(0),
  })
  .refine((v) => v.location !== "video" || v.videoUrl !== "", { path: ["videoUrl"], message: "Paste the video link for a video call" });

export async function listCallTypes(db: Db, actor: Actor | null) {
  authorize(actor, canManageBookings, BOOKINGS_FORBIDDEN);
  return db.select().from(bookingCallTypes).orderBy(asc(bookingCallTypes.displayOrder), asc(bookingCallTypes.createdAt));
}

/** Creates a call type, or updates the one with `id`. */
export async function saveCallType(db: Db, actor: Actor | null, input: unknown): Promise<void> {
  authorize(actor, canManageBookings, BOOKINGS_FORBIDDEN);
  const { id, videoUrl, ...values } = parseOrThrow(callTypeFormSchema, input);
  const row = { ...values, videoUrl: videoUrl || null };
  try {
    await db.transaction(async (tx) => {
      if (id) {
        const updated = await tx
          .update(bookingCallTypes)
          .set({ ...row, updatedAt: sql`now()` })
          .where(eq(bookingCallTypes.id, id))
          .returning({ id: bookingCallTypes.id });
        if (updated.length === 0) throw new NotFoundError("Call type not found");
      } else {
        await tx.insert(bookingCallTypes).values(row);
      }
      await bumpContentVersion(tx);
    });
  } catch (error) {
    if (hasPgErrorCode(error, UNIQUE_VIOLATION)) throw new ConflictError("Another call type has this address name.");
    throw error;
  }
}
