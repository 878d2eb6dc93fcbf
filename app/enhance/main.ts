/**
 * The page's enhancement script, on every page (public pages ship no React, so their behaviour lives here): a small vanilla module bundled apart
 * from React (scripts/build-enhance.mjs). Public pages that opted out of hydration (lib/hydration.ts)
 * get their interactive parts from it alone; on React pages it drives the same header controls,
 * whose components draw only markup, so each behaviour has one implementation.
 */
import { enhanceFeaturedImages } from "~/components/featured-card-behavior";
import { redirectRecoveryFragment } from "~/components/recovery-redirect";
import { enhanceReveals } from "~/components/reveal-behavior";
import { enhanceThemeToggle } from "~/components/theme-toggle-behavior";
import { enhanceMenuButtons } from "~/components/ui/menu-button-behavior";
import { enhanceSheets } from "~/components/ui/sheet-behavior";
import { BOOKING_FORM_ATTRIBUTE, SLOT_PICKER_ATTRIBUTE } from "~/features/booking/booking-dom";
import { COMMENT_FORM_ATTRIBUTE } from "~/features/comments/comment-form-dom";
import { CONTACT_FORM_ATTRIBUTE } from "~/features/contact/contact-form-dom";
import { enhanceSearchShortcut } from "~/features/search/search-shortcut";
import { enhanceNavFit } from "~/features/layout/nav-fit-behavior";
import { enhancePageLoading } from "~/features/layout/page-loading-behavior";
import { enhanceSubscribeForms } from "~/features/subscriptions/subscribe-form-behavior";

redirectRecoveryFragment();
enhanceThemeToggle();
enhanceMenuButtons();
enhanceSheets();
enhanceSearchShortcut();
enhanceNavFit();

// React Router's inline script defines its context before any module runs: then React draws the
// rest (its own Subscribe form, reveals, images) and marks the page hydrated.
if (!("__reactRouterContext" in window)) {
  enhanceSubscribeForms();
  enhanceReveals();
  enhanceFeaturedImages();
  enhancePageLoading();
  // The contact form's behaviour (with zod, for the shared schema) loads only on the page with it.
  const contactForm = document.querySelector<HTMLFormElement>(`form[${CONTACT_FORM_ATTRIBUTE}]`);
  const booking = document.querySelector(`[${SLOT_PICKER_ATTRIBUTE}], form[${BOOKING_FORM_ATTRIBUTE}]`);
  const ready = contactForm
    ? import("~/features/contact/contact-form-behavior").then(({ enhanceContactForm }) => {
        enhanceContactForm(contactForm);
      })
    : booking
      ? import("~/features/booking/booking-behavior").then(({ enhanceBooking }) => enhanceBooking())
      : Promise.resolve();
  // The comment form's proof of work loads when the reader first reaches the form.
  for (const form of document.querySelectorAll<HTMLFormElement>(`form[${COMMENT_FORM_ATTRIBUTE}]`)) {
    form.addEventListener(
      "focusin",
      () => {
        void import("~/features/comments/comment-form-behavior")
          .then(({ mountCommentVerification }) => mountCommentVerification(form))
          .catch((error: unknown) => console.error("comment form script could not be loaded", error));
      },
      { once: true },
    );
  }
  // What tests wait for before typing (tests/e2e/helpers/ui.ts gotoHydrated), like on React pages.
  // Should the behaviour fail to load, the form still posts to the server.
  void ready
    .catch((error: unknown) => console.error("page script could not be loaded", error))
    .finally(() => {
      document.documentElement.dataset.hydrated = "";
    });
}
