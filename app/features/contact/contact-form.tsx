import { useEffect, useState } from "react";
import { toast } from "~/components/toaster";
import { FormField, SubmitButton, useSchemaForm } from "~/components/forms";
import { Button } from "~/components/ui/button";
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "~/components/ui/dialog";
import { Input } from "~/components/ui/input";
import { Textarea } from "~/components/ui/textarea";
import { HumanVerification } from "~/features/verification/human-verification";
import { VERIFICATION_REQUIRED, type VerificationConfig } from "~/features/verification/verification";
import type { Submission, SubmissionResult } from "~/lib/forms";
import { CONTACT_SEND_FAILED, contactSchema, firstName, HONEYPOT_FIELD, type ContactInput } from "./contact-schema";
import { newClientId } from "./client-id";

/** What the /contact action answers to a plain (no-JavaScript) form post. */
export type ContactActionData =
  | { sent: true; firstName: string }
  | { sent: false; result: SubmissionResult<string[]>; formError: { title: string; description: string } | null };

export const THANK_YOU_TEXT = "Your message has been sent. I'll get back to you within 24-48 hours on business days.";

export function thankYouTitle(name: string): string {
  return `Thank you, ${name}!`;
}

/** The API's failure body: its message and, for a 400, field errors keyed like the form's fields. */
const sendErrorBody = (value: unknown): { error?: string; fieldErrors?: Record<string, string[]> } => {
  if (!value || typeof value !== "object") return {};
  const error = "error" in value && typeof value.error === "string" ? value.error : undefined;
  const fieldErrors: Record<string, string[]> = {};
  const raw: unknown = "fieldErrors" in value ? value.fieldErrors : undefined;
  if (raw && typeof raw === "object") {
    for (const [field, messages] of Object.entries(raw)) {
      if (Array.isArray(messages)) fieldErrors[field] = messages.filter((m): m is string => typeof m === "string");
    }
  }
  return { error, fieldErrors };
};

/**
 * The contact form (SPEC §2, §4, §5). With JavaScript it validates with the shared schema, posts
 * JSON to /api/send-contact-email and shows the thank-you dialog; without it, it is a plain form
 * post to the /contact action, which runs the same server function.
 */
export function ContactForm({ verification, actionData }: { verification: VerificationConfig; actionData: ContactActionData | undefined }) {
  const fromServer = actionData && !actionData.sent ? actionData : undefined;
  // The server's last word: the no-JavaScript post's reply, or the API's field errors after a send.
  const [lastResult, setLastResult] = useState<SubmissionResult<string[]> | undefined>(fromServer?.result);
  const [token, setToken] = useState<string | null>(null);
  const [resetKey, setResetKey] = useState(0);
  const [sending, setSending] = useState(false);
  const [hydrated, setHydrated] = useState(false);
  // One id per submission, kept across retries of it, so a retried send stores one message. Made in
  // the browser, so the server-rendered page is the same for every visitor (and can be cached).
  const [clientId, setClientId] = useState("");
  const [thanksName, setThanksName] = useState<string | null>(null);

  useEffect(() => {
    setHydrated(true);
    setClientId(newClientId());
  }, []);

  const fail = (reason: unknown, message: { title: string; description: string } = CONTACT_SEND_FAILED) => {
    console.error("contact message could not be sent", reason);
    toast.error(message.title, { description: message.description });
    // Tokens are single-use: get a fresh one for the next try.
    setToken(null);
    setResetKey((k) => k + 1);
  };

  const send = async (submission: Submission<ContactInput>, values: ContactInput, honeypot: FormDataEntryValue | null) => {
    if (!token) {
      toast.error(VERIFICATION_REQUIRED.title, { description: VERIFICATION_REQUIRED.description });
      return;
    }
    setSending(true);
    try {
      const response = await fetch("/api/send-contact-email", {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({
          ...values,
          turnstileToken: token,
          clientId,
          [HONEYPOT_FIELD]: typeof honeypot === "string" ? honeypot : "",
        }),
      });
      if (!response.ok) {
        const body = sendErrorBody(await response.json().catch(() => null));
        if (body.fieldErrors && Object.keys(body.fieldErrors).length > 0)
          setLastResult(submission.reply({ fieldErrors: body.fieldErrors }));
        if (response.status === 409) setClientId(newClientId());
        // 403: the token was refused (expired or already used) — ask for a fresh verification.
        fail(
          new Error(`HTTP ${response.status}: ${body.error ?? "no error message"}`),
          response.status === 403 ? VERIFICATION_REQUIRED : CONTACT_SEND_FAILED,
        );
        return;
      }
      setThanksName(firstName(values.name));
      form.reset();
      setClientId(newClientId());
      setToken(null);
      setResetKey((k) => k + 1);
    } catch (error) {
      fail(error);
    } finally {
      setSending(false);
    }
  };

  // SPEC §5: checked on submit, re-checked on change. With JavaScript the message goes to the JSON
  // API (the thank-you dialog); without it, the form posts to /contact, which runs the same checks.
  const [form, fields] = useSchemaForm({
    id: "contact",
    schema: contactSchema,
    lastResult,
    shouldValidate: "onSubmit",
    onSubmit(event, { submission, formData }) {
      event.preventDefault();
      if (sending || submission?.status !== "success") return;
      void send(submission, submission.value, formData.get(HONEYPOT_FIELD));
    },
  });

  return (
    <>
      <form
        method="post"
        action="/contact"
        id={form.id}
        noValidate={form.noValidate}
        onSubmit={form.onSubmit}
        className="space-y-5"
        aria-label="Contact form"
      >
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
        <FormField field={fields.name} label="Name">
          {(props) => <Input {...props} type="text" autoComplete="name" />}
        </FormField>
        <FormField field={fields.email} label="Email">
          {(props) => <Input {...props} type="email" autoComplete="email" />}
        </FormField>
        <FormField field={fields.message} label="Message">
          {(props) => <Textarea {...props} rows={6} />}
        </FormField>
        <HumanVerification config={verification} onToken={setToken} resetKey={resetKey} fieldName="turnstileToken" />
        <noscript>
          <p className="text-sm text-muted-foreground">
            The security check needs JavaScript. Without it, please write to me directly by email.
          </p>
        </noscript>
        <SubmitButton size="lg" pending={sending} pendingLabel="Sending..." disabled={hydrated && !token} className="w-full sm:w-auto">
          Send Message
        </SubmitButton>
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
