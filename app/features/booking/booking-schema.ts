import { z } from "zod";
import { emailSchema } from "~/lib/email";
import { isValidTimeZone } from "~/lib/time-zone";

/** Texts visitors see (one home, used by the pages, the server and the tests). */
export const BOOKING_TEXT = {
  taken: "That time was just taken; please pick another.",
  notOffered: "That time is not available. Please pick one of the times shown.",
  paused: "Booking is paused; please use the contact form.",
  rateLimited: "You have booked several calls in a short time. Please try again later or use the contact form.",
  invalid: "Please correct the highlighted fields.",
  unknownType: "This kind of call is not offered.",
  badLink: "This link is not valid. Please use the link from your confirmation email.",
  expiredLink: "This link has expired: the call has started or is over.",
  cancelled: "This call was cancelled.",
} as const;

export const BOOKING_LIMITS = { name: 100, phone: 40, company: 200, topic: 200, notes: 2000, cancelMessage: 1000 } as const;

const optionalText = (max: number, label: string) =>
  z
    .string()
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .optional()
    .transform((v) => (v ? v : undefined));

/** The visitor's answers (the call type decides which optional ones are asked; booking.server.ts checks that). */
export const bookingAnswersSchema = z.object({
  name: z.string().trim().min(1, "Name is required").max(BOOKING_LIMITS.name, `Name must be at most ${BOOKING_LIMITS.name} characters`),
  email: emailSchema,
  phone: optionalText(BOOKING_LIMITS.phone, "Phone number"),
  company: optionalText(BOOKING_LIMITS.company, "Company"),
  topic: optionalText(BOOKING_LIMITS.topic, "Topic"),
  notes: optionalText(BOOKING_LIMITS.notes, "Notes"),
});

export const visitorTimeZoneSchema = z
  .string()
  .max(64)
  .refine((v) => isValidTimeZone(v), "Unknown time zone");

/** A booking request: the call type, the chosen start (ISO instant), the answers, verification and honeypot. */
export const bookingRequestSchema = bookingAnswersSchema.extend({
  callType: z.string().min(1).max(100),
  start: z.iso.datetime({ offset: true, message: "Please pick a time." }),
  timeZone: visitorTimeZoneSchema.optional().catch(undefined),
  verificationToken: z.string().max(4096).optional().nullable(),
  website: z.string().max(2000).optional().nullable(),
});

export type BookingRequest = z.input<typeof bookingRequestSchema>;

/** The refusal of the bookings area and of every bookings write to anyone but an administrator. */
export const BOOKINGS_FORBIDDEN = "Only an administrator can manage bookings.";
