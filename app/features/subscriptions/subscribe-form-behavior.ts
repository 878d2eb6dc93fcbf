import { elementOf } from "~/lib/dom";
import { HUMAN_VERIFICATION_TEST_ID, mountVerification, verificationConfigOf } from "~/features/verification/verification-widget";

/** Marks the Subscribe form (subscribe-form.tsx) for pages without React. */
export const SUBSCRIBE_FORM_ATTRIBUTE = "data-subscribe-form";

/**
 * The Subscribe form on a page without React (app/enhance): it posts to /subscribe like without
 * JavaScript; once it is used, the verification widget appears above 'Subscribe', which waits for
 * it — as in the React form, so pages that merely show the form fetch no challenge.
 */
export function enhanceSubscribeForms(): void {
  document.addEventListener("focusin", (event) => {
    const form = elementOf(event.target)?.closest(`form[${SUBSCRIBE_FORM_ATTRIBUTE}]`);
    if (!(form instanceof HTMLFormElement) || form.dataset.engaged !== undefined) return;
    const config = verificationConfigOf(form);
    const submit = form.querySelector<HTMLButtonElement>('button[type="submit"]');
    if (!config || !submit) return;
    form.dataset.engaged = "";
    const container = document.createElement("div");
    container.dataset.testid = HUMAN_VERIFICATION_TEST_ID;
    submit.before(container);
    mountVerification(container, config, (token) => {
      submit.disabled = !token;
    });
  });
}
