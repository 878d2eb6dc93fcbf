/**
 * Marks the contact form (contact-form.tsx). Apart from its behaviour (contact-form-behavior.ts, which
 * holds the markup's other hooks) so that every page's enhancement script can look for the form
 * without loading the behaviour, and zod with it.
 */
export const CONTACT_FORM_ATTRIBUTE = "data-contact-form";
