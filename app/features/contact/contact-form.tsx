import { useEffect, useRef, useState } from "react";
import { toast } from "sonner";
import { Button } from "~/components/ui/button";
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "~/components/ui/dialog";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Textarea } from "~/components/ui/textarea";
import { HumanVerification } from "~/features/verification/human-verification";
import { VERIFICATION_REQUIRED, type VerificationConfig } from "~/features/verification/verification";
import {
  CONTACT_SEND_FAILED,
  contactFieldErrors,
  contactSchema,
  firstName,
  HONEYPOT_FIELD,
  type ContactField,
  type ContactFieldErrors,
} from "./contact-schema";
import { newClientId } from "./client-id";

export interface ContactValues {
  name: string;
  email: string;
  message: string;
}

/** What the /contact action answers to a plain (no-JavaScript) form post. */
export type ContactActionData =
  | { sent: true; firstName: string }
  | { sent: false; values: ContactValues; fieldErrors: ContactFieldErrors; formError: { title: string; description: string } | null };

const EMPTY: ContactValues = { name: "", email: "", message: "" };
const FIELDS: ContactField[] = ["name", "email", "message"];

export const THANK_YOU_TEXT = "Your message has been sent. I'll get back to you within 24-48 hours on business days.";

export function thankYouTitle(name: string): string {
  return `Thank you, ${name}!`;
}

const sendErrorBody = (value: unknown): { error?: string; fieldErrors?: ContactFieldErrors } => {
  if (!value || typeof value !== "object") return {};
  const error = "error" in value && typeof value.error === "string" ? value.error : undefined;
  const parsed = "fieldErrors" in value ? contactFieldErrorsFrom(value.fieldErrors) : undefined;
  return { error, fieldErrors: parsed };
};

function contactFieldErrorsFrom(value: unknown): ContactFieldErrors | undefined {
  if (!value || typeof value !== "object") return undefined;
  const result: ContactFieldErrors = {};
  for (const field of FIELDS) {
    const messages: unknown = Reflect.get(value, field);
    if (Array.isArray(messages)) result[field] = messages.filter((m): m is string => typeof m === "string");
  }
  return result;
}


/**
 * The contact form (SPEC §2, §4, §5). With JavaScript it validates with the shared schema, posts
 * JSON to /api/send-contact-email and shows the thank-you dialog; without it, it is a plain form
 * post to the /contact action, which runs the same server function.
 */
export function ContactForm({
  verification,
  initialClientId,
  actionData,
}: {
  verification: VerificationConfig;
  initialClientId: string;
  actionData: ContactActionData | undefined;
}) {
  const fromServer = actionData && !actionData.sent ? actionData : undefined;
  const [values, setValues] = useState<ContactValues>(fromServer?.values ?? EMPTY);
  const [errors, setErrors] = useState<ContactFieldErrors>(fromServer?.fieldErrors ?? {});
  const [submitted, setSubmitted] = useState(Boolean(fromServer));
  const [token, setToken] = useState<string | null>(null);
  const [resetKey, setResetKey] = useState(0);
  const [sending, setSending] = useState(false);
  const [hydrated, setHydrated] = useState(false);
  // One id per submission, kept across retries of it, so a retried send stores one message.
  const [clientId, setClientId] = useState(initialClientId);
  const [thanksName, setThanksName] = useState<string | null>(null);
  const fieldRefs = useRef<Partial<Record<ContactField, HTMLInputElement | HTMLTextAreaElement | null>>>({});

  useEffect(() => setHydrated(true), []);

  const update = (field: ContactField, value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    if (submitted) {
      const result = contactSchema.safeParse(next);
      setErrors(result.success ? {} : contactFieldErrors(result.error));
    }
  };

  const focusFirstError = (fieldErrors: ContactFieldErrors) => {
    const first = FIELDS.find((f) => fieldErrors[f]?.length);
    if (first) fieldRefs.current[first]?.focus();
  };

  const fail = (reason: unknown, message: { title: string; description: string } = CONTACT_SEND_FAILED) => {
    console.error("contact message could not be sent", reason);
    toast.error(message.title, { description: message.description });
    // Tokens are single-use: get a fresh one for the next try.
    setToken(null);
    setResetKey((k) => k + 1);
  };

  const onSubmit = async (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (sending) return;
    setSubmitted(true);
    const result = contactSchema.safeParse(values);
    if (!result.success) {
      const fieldErrors = contactFieldErrors(result.error);
      setErrors(fieldErrors);
      focusFirstError(fieldErrors);
      return;
    }
    setErrors({});
    if (!token) {
      toast.error(VERIFICATION_REQUIRED.title, { description: VERIFICATION_REQUIRED.description });
      return;
    }
    const honeypot = new FormData(event.currentTarget).get(HONEYPOT_FIELD);
    setSending(true);
    try {
      const response = await fetch("/api/send-contact-email", {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({
          ...result.data,
          turnstileToken: token,
          clientId,
          [HONEYPOT_FIELD]: typeof honeypot === "string" ? honeypot : "",
        }),
      });
      if (!response.ok) {
        const body = sendErrorBody(await response.json().catch(() => null));
        if (body.fieldErrors && Object.keys(body.fieldErrors).length > 0) {
          setErrors(body.fieldErrors);
          focusFirstError(body.fieldErrors);
        }
        if (response.status === 409) setClientId(newClientId());
        // 403: the token was refused (expired or already used) — ask for a fresh verification.
        fail(new Error(`HTTP ${response.status}: ${body.error ?? "no error message"}`), response.status === 403 ? VERIFICATION_REQUIRED : CONTACT_SEND_FAILED);
        return;
      }
      setThanksName(firstName(result.data.name));
      setValues(EMPTY);
      setErrors({});
      setSubmitted(false);
      setClientId(newClientId());
      setToken(null);
      setResetKey((k) => k + 1);
    } catch (error) {
      fail(error);
    } finally {
      setSending(false);
    }
  };

  const field = (name: ContactField) => {
    const message = errors[name]?.[0];
    return {
      id: `contact-${name}`,
      name,
      value: values[name],
      "aria-invalid": message ? true : undefined,
      "aria-describedby": message ? `contact-${name}-error` : undefined,
      onChange: (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => update(name, e.target.value),
      ref: (el: HTMLInputElement | HTMLTextAreaElement | null) => {
        fieldRefs.current[name] = el;
      },
    };
  };

  const errorText = (name: ContactField) => {
    const message = errors[name]?.[0];
    return message ? (
      <p id={`contact-${name}-error`} role="alert" className="text-sm font-medium text-destructive">
        {message}
      </p>
    ) : null;
  };

  return (
    <>
      <form method="post" action="/contact" noValidate onSubmit={onSubmit} className="space-y-5" aria-label="Contact form">
        {fromServer?.formError ? (
          <div role="alert" className="rounded-md border border-destructive/40 bg-destructive/5 p-3 text-sm">
            <p className="font-semibold text-destructive">{fromServer.formError.title}</p>
            <p>{fromServer.formError.description}</p>
          </div>
        ) : null}
        <input type="hidden" name="clientId" value={clientId} />
        {/* Honeypot: hidden from people and assistive technology; bots that fill it are dropped. */}
        <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
          <label htmlFor={`contact-${HONEYPOT_FIELD}`}>Website</label>
          <input id={`contact-${HONEYPOT_FIELD}`} type="text" name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" defaultValue="" />
        </div>
        <div className="space-y-2">
          <Label htmlFor="contact-name">Name</Label>
          <Input type="text" autoComplete="name" {...field("name")} />
          {errorText("name")}
        </div>
        <div className="space-y-2">
          <Label htmlFor="contact-email">Email</Label>
          <Input type="email" autoComplete="email" {...field("email")} />
          {errorText("email")}
        </div>
        <div className="space-y-2">
          <Label htmlFor="contact-message">Message</Label>
          <Textarea rows={6} {...field("message")} />
          {errorText("message")}
        </div>
        <HumanVerification config={verification} onToken={setToken} resetKey={resetKey} fieldName="turnstileToken" />
        <noscript>
          <p className="text-sm text-muted-foreground">
            The security check needs JavaScript. Without it, please write to me directly by email.
          </p>
        </noscript>
        <Button type="submit" size="lg" disabled={hydrated && (sending || !token)} className="w-full sm:w-auto">
          {sending ? "Sending..." : "Send Message"}
        </Button>
      </form>
      <Dialog open={thanksName !== null} onOpenChange={(open) => !open && setThanksName(null)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>{thankYouTitle(thanksName ?? "")}</DialogTitle>
            <DialogDescription>{THANK_YOU_TEXT}</DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <DialogClose asChild>
              <Button type="button">Close</Button>
            </DialogClose>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </>
  );
}
