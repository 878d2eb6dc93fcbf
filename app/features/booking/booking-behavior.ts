import { mountVerification, verificationConfigOf } from "~/features/verification/verification-widget";
import { BOOKING_FORM_ATTRIBUTE, BOOKING_VERIFICATION_ATTRIBUTE, SLOT_PICKER_ATTRIBUTE } from "./booking-dom";

/**
 * The booking page's behaviour on pages without React (app/enhance): the times in the visitor's
 * own zone (detected with Intl, still changeable in the list) and the verification widget in the
 * form. Without JavaScript the page shows the owner's zone and the form asks for the contact form.
 */
export function enhanceBooking(): void {
  const picker = document.querySelector<HTMLElement>(`[${SLOT_PICKER_ATTRIBUTE}]`);
  const url = new URL(window.location.href);
  const detected = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (picker && !url.searchParams.has("tz") && detected && detected !== picker.dataset.timeZone) {
    // A chosen slot stays chosen; the day is the visitor's own day, so it is chosen anew.
    url.searchParams.set("tz", detected);
    url.searchParams.delete("day");
    window.location.replace(url.toString());
    return;
  }
  const form = document.querySelector<HTMLFormElement>(`form[${BOOKING_FORM_ATTRIBUTE}]`);
  const slot = form?.querySelector<HTMLElement>(`[${BOOKING_VERIFICATION_ATTRIBUTE}]`);
  const config = form ? verificationConfigOf(form) : null;
  if (form && slot && config) mountVerification(slot, config, () => undefined);
}
