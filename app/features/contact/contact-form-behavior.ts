// First: the schema is created when its module loads (see lib/zod-csp.ts).
import "~/lib/zod-csp";
import { showPlainToast } from "~/components/plain-toast";
import { VERIFICATION_REQUIRED } from "~/features/verification/verification";
import { mountVerification, verificationConfigOf } from "~/features/verification/verification-widget";
import { errorIdOf } from "~/lib/dom";
import type { FieldErrors } from "~/lib/field-errors";
import { newClientId } from "./client-id";
import type { ContactInput } from "./contact-schema";
import {
  CONTACT_SEND_FAILED,
  contactFieldsOf,
  firstName,
  HONEYPOT_FIELD,
  thankYouTitle,
  type ContactField,
  type ContactFieldErrors,
} from "./contact-texts";

// The markup's hooks (contact-form.tsx draws them).
/** The form's id; its controls are `contact-<field>`. */
export const CONTACT_FORM_ID = "contact";
/** Marks the server's message about the whole form (a plain post's answer). */
export const CONTACT_FORM_ERROR_ATTRIBUTE = "data-contact-form-error";
/** The thank-you <dialog>, its title, and the buttons that close it. */
export const CONTACT_THANKS_ID = "contact-thanks";
export const CONTACT_THANKS_TITLE_ID = "contact-thanks-title";
/** On the dialog's title: the owner's greeting with its {name} placeholder, filled in when a message is sent. */
export const CONTACT_THANKS_TEMPLATE_ATTRIBUTE = "data-template";
export const CONTACT_THANKS_CLOSE_ATTRIBUTE = "data-contact-thanks-close";
/** The verification widget's place. */
export const CONTACT_VERIFICATION_ATTRIBUTE = "data-contact-verification";

let schemaModule: Promise<typeof import("./contact-schema")> | undefined;
/** The shared schema, with zod: loaded on first use (not in the page's initial JavaScript). */
const loadSchema = () =>
  (schemaModule ??= import("./contact-schema").catch((error: unknown) => {
    // Tried again at the next use.
    schemaModule = undefined;
    throw error;
  }));

const CONTACT_FIELDS: readonly ContactField[] = ["name", "email", "message"];
export const contactControlId = (field: ContactField) => `${CONTACT_FORM_ID}-${field}`;

const SENDING_LABEL = "Sending...";

type Message = { readonly title: string; readonly description: string };

/** The API's failure body: its message and, for a 400, field errors keyed like the form's fields. */
function sendErrorBody(value: unknown): { error?: string; fieldErrors: FieldErrors } {
  const fieldErrors: FieldErrors = {};
  if (!value || typeof value !== "object") return { fieldErrors };
  const error = "error" in value && typeof value.error === "string" ? value.error : undefined;
  const raw: unknown = "fieldErrors" in value ? value.fieldErrors : undefined;
  if (raw && typeof raw === "object") {
    for (const [field, messages] of Object.entries(raw)) {
      if (Array.isArray(messages)) fieldErrors[field] = messages.filter((m): m is string => typeof m === "string");
    }
  }
  return { error, fieldErrors };
}

function controlOf(field: ContactField): HTMLInputElement | HTMLTextAreaElement | null {
  const control = document.getElementById(contactControlId(field));
  return control instanceof HTMLInputElement || control instanceof HTMLTextAreaElement ? control : null;
}

const textOf = (data: FormData, key: string) => {
  const value = data.get(key);
  return typeof value === "string" ? value : "";
};

/** Each field's first message under it (the markup's always-present error line), or none. */
function showFieldErrors(errors: ContactFieldErrors): void {
  for (const field of CONTACT_FIELDS) {
    const control = controlOf(field);
    if (!control) continue;
    const message = errors[field]?.[0];
    const errorId = errorIdOf(control.id);
    const line = document.getElementById(errorId);
    if (message) {
      control.setAttribute("aria-invalid", "true");
      control.setAttribute("aria-describedby", errorId);
    } else {
      control.removeAttribute("aria-invalid");
      control.removeAttribute("aria-describedby");
    }
    if (line) {
      line.textContent = message ?? "";
      line.hidden = !message;
    }
  }
}

/**
 * The contact form's behaviour (SPEC §4, §5, §8), on pages with React (contact-form.tsx calls it
 * once the form is drawn) and without it (app/enhance loads it on the page with the form): checked
 * with the shared schema on submit and again on every change after that; the verification widget,
 * without whose token 'Send Message' stays disabled; the JSON post to /api/send-contact-email with
 * a submission id made here and kept across retries of that message; 'Sending...'; the thank-you
 * dialog and a reset form on success; on failure the form stays filled, a toast says why and the
 * spent token is replaced. Without JavaScript the form posts to /contact, which runs the same checks.
 * Returns what undoes it.
 */
export function enhanceContactForm(form: HTMLFormElement): () => void {
  const config = verificationConfigOf(form);
  const submit = form.querySelector<HTMLButtonElement>('button[type="submit"]');
  const slot = form.querySelector<HTMLElement>(`[${CONTACT_VERIFICATION_ATTRIBUTE}]`);
  const clientId = form.elements.namedItem("clientId");
  const dialog = document.getElementById(CONTACT_THANKS_ID);
  const dialogTitle = document.getElementById(CONTACT_THANKS_TITLE_ID);
  if (!config || !submit || !slot || !(clientId instanceof HTMLInputElement)) return () => undefined;

  const idleLabel = submit.textContent;
  let token: string | null = null;
  let sending = false;
  // Between a submit and its check's result (the schema may still be loading).
  let submitting = false;
  // SPEC §5: re-checked on change once checked — after a submit, or when the server sent errors back.
  let checking = form.querySelector('[aria-invalid="true"]') !== null;
  // One id per message, kept across its retries, so a retried send stores it once.
  clientId.value = newClientId();

  const updateSubmit = () => {
    submit.disabled = sending || !token;
    submit.textContent = sending ? SENDING_LABEL : idleLabel;
  };
  let unmountWidget: () => void = () => undefined;
  /** A fresh widget: tokens are single-use, so after each send (or a refusal) a new one is needed. */
  const mountWidget = () => {
    unmountWidget();
    token = null;
    unmountWidget = mountVerification(
      slot,
      config,
      (value) => {
        token = value;
        updateSubmit();
      },
      "turnstileToken",
    );
  };

  /** Checks the form with the shared schema and shows the result; the values when valid. */
  const check = async (focusFirstError: boolean): Promise<ContactInput | null> => {
    const { contactFieldErrors, contactSchema } = await loadSchema();
    const data = new FormData(form);
    const result = contactSchema.safeParse({ name: textOf(data, "name"), email: textOf(data, "email"), message: textOf(data, "message") });
    const errors = result.success ? {} : contactFieldErrors(result.error);
    showFieldErrors(errors);
    if (focusFirstError) {
      const first = CONTACT_FIELDS.find((field) => errors[field]?.length);
      if (first) controlOf(first)?.focus();
    }
    return result.success ? result.data : null;
  };

  const fail = (reason: unknown, message: Message = CONTACT_SEND_FAILED) => {
    console.error("contact message could not be sent", reason);
    showPlainToast("error", message.title, message.description);
    mountWidget();
  };

  const thank = (name: string) => {
    if (!(dialog instanceof HTMLDialogElement)) return;
    const template = dialogTitle?.getAttribute(CONTACT_THANKS_TEMPLATE_ATTRIBUTE);
    if (dialogTitle && template) dialogTitle.textContent = thankYouTitle(template, firstName(name));
    dialog.showModal();
  };

  const send = async (values: ContactInput, verified: string, honeypot: string) => {
    sending = true;
    updateSubmit();
    try {
      const response = await fetch("/api/send-contact-email", {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({ ...values, turnstileToken: verified, clientId: clientId.value, [HONEYPOT_FIELD]: honeypot }),
      });
      if (!response.ok) {
        const body = sendErrorBody(await response.json().catch(() => null));
        const fieldErrors = contactFieldsOf(body.fieldErrors);
        if (Object.keys(fieldErrors).length > 0) showFieldErrors(fieldErrors);
        if (response.status === 409) clientId.value = newClientId();
        // 403: the token was refused (expired or already used) — ask for a fresh verification.
        fail(
          new Error(`HTTP ${response.status}: ${body.error ?? "no error message"}`),
          response.status === 403 ? VERIFICATION_REQUIRED : CONTACT_SEND_FAILED,
        );
        return;
      }
      form.reset();
      // reset() brings back the values a plain post's answer was drawn with: the form starts empty.
      for (const field of CONTACT_FIELDS) {
        const control = controlOf(field);
        if (control) control.value = "";
      }
      checking = false;
      showFieldErrors({});
      clientId.value = newClientId();
      mountWidget();
      thank(values.name);
    } catch (error) {
      fail(error);
    } finally {
      sending = false;
      updateSubmit();
    }
  };

  const onSubmit = async (event: SubmitEvent) => {
    event.preventDefault();
    if (sending || submitting) return;
    for (const box of form.querySelectorAll<HTMLElement>(`[${CONTACT_FORM_ERROR_ATTRIBUTE}]`)) box.hidden = true;
    checking = true;
    submitting = true;
    let values: ContactInput | null;
    try {
      values = await check(true);
    } catch (error) {
      fail(error);
      return;
    } finally {
      submitting = false;
    }
    if (!values) return;
    if (!token) {
      showPlainToast("error", VERIFICATION_REQUIRED.title, VERIFICATION_REQUIRED.description);
      return;
    }
    await send(values, token, textOf(new FormData(form), HONEYPOT_FIELD));
  };
  // A failed load is reported by the next submit.
  const onInput = () => {
    if (checking) check(false).catch(() => undefined);
  };
  // The schema (zod) loads once the visitor turns to the form, not with the page.
  const onFocusIn = () => {
    loadSchema().catch(() => undefined);
  };
  const onDialogClick = (event: MouseEvent) => {
    // A click on the backdrop reaches the <dialog> itself (its content sits in an inner box).
    const target = event.target;
    if (!(dialog instanceof HTMLDialogElement) || !(target instanceof Element)) return;
    if (target === dialog || target.closest(`[${CONTACT_THANKS_CLOSE_ATTRIBUTE}]`)) dialog.close();
  };
  // The browser would return focus to 'Send Message', disabled until the next verification: the
  // visitor goes on from the first field of the emptied form instead.
  const onDialogClose = () => controlOf("name")?.focus();

  const listening = new AbortController();
  const { signal } = listening;
  form.addEventListener("submit", (event) => void onSubmit(event), { signal });
  form.addEventListener("input", onInput, { signal });
  form.addEventListener("focusin", onFocusIn, { signal });
  dialog?.addEventListener("click", onDialogClick, { signal });
  dialog?.addEventListener("close", onDialogClose, { signal });
  mountWidget();
  return () => {
    listening.abort();
    unmountWidget();
  };
}
