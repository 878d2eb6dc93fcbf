import { useEffect, useRef, type ReactNode } from "react";
import type { ControlProps } from "~/components/forms";
import { Button } from "~/components/ui/button";
import { CloseIconButton } from "~/components/ui/close-icon-button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Textarea } from "~/components/ui/textarea";
import type { VerificationConfig } from "~/features/verification/verification";
import { HUMAN_VERIFICATION_TEST_ID, verificationAttributes } from "~/features/verification/verification-widget";
import { errorIdOf } from "~/lib/dom";
import {
  CONTACT_FORM_ERROR_ATTRIBUTE,
  CONTACT_FORM_ID,
  CONTACT_THANKS_CLOSE_ATTRIBUTE,
  CONTACT_THANKS_ID,
  CONTACT_THANKS_TEMPLATE_ATTRIBUTE,
  CONTACT_THANKS_TITLE_ID,
  CONTACT_VERIFICATION_ATTRIBUTE,
  contactControlId,
  enhanceContactForm,
} from "./contact-form-behavior";
import { CONTACT_FORM_ATTRIBUTE } from "./contact-form-dom";
import { HONEYPOT_FIELD, thankYouTitle, type ContactField, type ContactFieldErrors } from "./contact-texts";

/** The thank-you title (with its {name} placeholder) and text, in the owner's words. */
export interface ContactThanks {
  title: string;
  text: string;
}

/** What the /contact action answers to a plain (no-JavaScript) form post. */
export type ContactActionData =
  | { sent: true; firstName: string }
  | {
      sent: false;
      values: Record<ContactField, string>;
      fieldErrors: ContactFieldErrors;
      formError: { title: string; description: string } | null;
    };

type Reply = Extract<ContactActionData, { sent: false }>;

/** Label, control and its error line — always there (hidden when empty), for the behaviour to fill. */
function ContactControl({
  field,
  label,
  reply,
  children,
}: {
  field: ContactField;
  label: string;
  reply: Reply | undefined;
  children: (props: ControlProps) => ReactNode;
}) {
  const id = contactControlId(field);
  const error = reply?.fieldErrors[field]?.[0];
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      {children({
        id,
        name: field,
        defaultValue: reply?.values[field],
        required: true,
        ...(error ? { "aria-invalid": true, "aria-describedby": errorIdOf(id) } : {}),
      })}
      <p id={errorIdOf(id)} role="alert" hidden={!error} className="text-sm font-medium text-destructive">
        {error}
      </p>
    </div>
  );
}

/** The thank-you dialog (SPEC §4), on the browser's modal <dialog>; the behaviour opens it with the visitor's name. */
function ThankYouDialog({ thanks }: { thanks: ContactThanks }) {
  const descriptionId = `${CONTACT_THANKS_ID}-description`;
  const close = { [CONTACT_THANKS_CLOSE_ATTRIBUTE]: "" };
  return (
    <dialog
      id={CONTACT_THANKS_ID}
      aria-labelledby={CONTACT_THANKS_TITLE_ID}
      aria-describedby={descriptionId}
      className="m-auto w-full max-w-[calc(100%-2rem)] rounded-lg border bg-background p-0 text-foreground shadow-lg backdrop:bg-black/50 sm:max-w-lg"
    >
      <div className="relative grid gap-4 p-6">
        <div className="flex flex-col gap-2 text-center sm:text-left">
          <h2
            id={CONTACT_THANKS_TITLE_ID}
            className="text-lg leading-none font-semibold"
            {...{ [CONTACT_THANKS_TEMPLATE_ATTRIBUTE]: thanks.title }}
          >
            {thankYouTitle(thanks.title, "")}
          </h2>
          <p id={descriptionId} className="text-sm text-muted-foreground">
            {thanks.text}
          </p>
        </div>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button type="button" {...close}>
            Close
          </Button>
        </div>
        <CloseIconButton {...close} />
      </div>
    </dialog>
  );
}

/**
 * The contact form (SPEC §2, §4, §5): only its markup. Its behaviour (contact-form-behavior.ts) is
 * plain DOM code, run here once the form is drawn and by the enhancement script on the page without
 * React, so it has one implementation. Without JavaScript it is a plain form post to the /contact
 * action, which runs the same checks and server function and draws its answer here.
 */
export function ContactForm({
  verification,
  actionData,
  thanks,
}: {
  verification: VerificationConfig;
  actionData: ContactActionData | undefined;
  thanks: ContactThanks;
}) {
  const ref = useRef<HTMLFormElement>(null);
  useEffect(() => (ref.current ? enhanceContactForm(ref.current) : undefined), []);
  const reply = actionData && !actionData.sent ? actionData : undefined;
  return (
    <>
      <form
        ref={ref}
        method="post"
        action="/contact"
        id={CONTACT_FORM_ID}
        noValidate
        className="space-y-5"
        aria-label="Contact form"
        {...{ [CONTACT_FORM_ATTRIBUTE]: "" }}
        {...verificationAttributes(verification)}
      >
        {reply?.formError ? (
          <div
            role="alert"
            {...{ [CONTACT_FORM_ERROR_ATTRIBUTE]: "" }}
            className="rounded-md border border-destructive/40 bg-destructive/5 p-3 text-sm"
          >
            <p className="font-semibold text-destructive">{reply.formError.title}</p>
            <p>{reply.formError.description}</p>
          </div>
        ) : null}
        <input type="hidden" name="clientId" defaultValue="" />
        {/* Honeypot: hidden from people and assistive technology; bots that fill it are dropped. */}
        <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
          <label htmlFor={`contact-${HONEYPOT_FIELD}`}>Website</label>
          <input id={`contact-${HONEYPOT_FIELD}`} type="text" name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" defaultValue="" />
        </div>
        <ContactControl field="name" label="Name" reply={reply}>
          {(props) => <Input {...props} type="text" autoComplete="name" />}
        </ContactControl>
        <ContactControl field="email" label="Email" reply={reply}>
          {(props) => <Input {...props} type="email" autoComplete="email" />}
        </ContactControl>
        <ContactControl field="message" label="Message" reply={reply}>
          {(props) => <Textarea {...props} rows={6} />}
        </ContactControl>
        <div data-testid={HUMAN_VERIFICATION_TEST_ID} {...{ [CONTACT_VERIFICATION_ATTRIBUTE]: "" }} />
        <noscript>
          <p className="text-sm text-muted-foreground">
            The security check needs JavaScript. Without it, please write to me directly by email.
          </p>
        </noscript>
        <Button type="submit" size="lg" className="w-full sm:w-auto">
          Send Message
        </Button>
      </form>
      <ThankYouDialog thanks={thanks} />
    </>
  );
}
