/** Markers the booking pages draw and the enhancement script looks for (no React or zod here: app/enhance loads this). */
export const SLOT_PICKER_ATTRIBUTE = "data-slot-picker";
export const BOOKING_FORM_ATTRIBUTE = "data-booking-form";
export const BOOKING_VERIFICATION_ATTRIBUTE = "data-booking-verification";
