import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Textarea } from "~/components/ui/textarea";
import type { VerificationConfig } from "~/features/verification/verification";
import { HUMAN_VERIFICATION_TEST_ID, verificationAttributes } from "~/features/verification/verification-widget";
import { BOOKING_FORM_ATTRIBUTE, BOOKING_VERIFICATION_ATTRIBUTE } from "./booking-dom";
import { BOOKING_LIMITS } from "./booking-schema";
import type { PickerData } from "./slot-picker.server";

export interface BookingFormReply {
  values: Record<string, string>;
  fieldErrors: Record<string, string[]>;
  formError: string | null;
}

type Field = "name" | "email" | "phone" | "company" | "topic" | "notes";

const LABELS: Record<Field, string> = {
  name: "Name",
  email: "Email",
  phone: "Phone number",
  company: "Company",
  topic: "Topic",
  notes: "Anything I should know beforehand?",
};

function Control({
  field,
  reply,
  required,
  long,
}: {
  field: Field;
  reply: BookingFormReply | undefined;
  required: boolean;
  long?: boolean;
}) {
  const id = `booking-${field}`;
  const error = reply?.fieldErrors[field]?.[0];
  const props = {
    id,
    name: field,
    defaultValue: reply?.values[field] ?? "",
    required,
    maxLength: BOOKING_LIMITS[field as keyof typeof BOOKING_LIMITS] ?? undefined,
    ...(error ? { "aria-invalid": true, "aria-describedby": `${id}-error` } : {}),
  };
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>
        {LABELS[field]}
        {required ? "" : " (optional)"}
      </Label>
      {long ? (
        <Textarea {...props} rows={4} />
      ) : (
        <Input
          {...props}
          type={field === "email" ? "email" : field === "phone" ? "tel" : "text"}
          autoComplete={
            field === "name"
              ? "name"
              : field === "email"
                ? "email"
                : field === "phone"
                  ? "tel"
                  : field === "company"
                    ? "organization"
                    : "off"
          }
        />
      )}
      {error ? (
        <p id={`${id}-error`} className="text-sm font-medium text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The booking form for a chosen slot: the call type's questions, ALTCHA, a honeypot; a plain form post. */
export function BookingForm({
  picker,
  verification,
  reply,
}: {
  picker: PickerData & { selectedSlot: NonNullable<PickerData["selectedSlot"]> };
  verification: VerificationConfig;
  reply: BookingFormReply | undefined;
}) {
  const asked = new Set(picker.callType.questions);
  return (
    <form
      method="post"
      className="space-y-5"
      aria-labelledby="booking-form-heading"
      noValidate
      {...{ [BOOKING_FORM_ATTRIBUTE]: "" }}
      {...verificationAttributes(verification)}
    >
      <h2 id="booking-form-heading" className="text-xl font-semibold">
        Your details
      </h2>
      <p>
        <strong>{picker.selectedSlot.longLabel}</strong> ({picker.timeZone.replace(/_/g, " ")}), {picker.callType.durationMinutes} minutes.
        {picker.timeZone !== picker.ownerTimeZone ? (
          <span className="block text-sm text-muted-foreground">
            That is {picker.selectedSlot.ownerLabel} in my time zone ({picker.ownerTimeZone.replace(/_/g, " ")}).
          </span>
        ) : null}
      </p>
      {reply?.formError ? (
        <div role="alert" className="rounded-md border border-destructive/40 bg-destructive/5 p-3 text-sm font-semibold text-destructive">
          {reply.formError}
        </div>
      ) : null}
      <input type="hidden" name="callType" value={picker.callType.slug} />
      <input type="hidden" name="start" value={picker.selectedSlot.start} />
      <input type="hidden" name="timeZone" value={picker.timeZone} />
      {/* Honeypot: hidden from people and assistive technology; bots that fill it book nothing. */}
      <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
        <label htmlFor="booking-website">Website</label>
        <input id="booking-website" type="text" name="website" tabIndex={-1} autoComplete="off" defaultValue="" />
      </div>
      <Control field="name" reply={reply} required />
      <Control field="email" reply={reply} required />
      {picker.callType.location === "phone" ? <Control field="phone" reply={reply} required /> : null}
      {asked.has("company") ? <Control field="company" reply={reply} required={false} /> : null}
      {asked.has("topic") ? <Control field="topic" reply={reply} required={false} /> : null}
      {asked.has("notes") ? <Control field="notes" reply={reply} required={false} long /> : null}
      <div data-testid={HUMAN_VERIFICATION_TEST_ID} {...{ [BOOKING_VERIFICATION_ATTRIBUTE]: "" }} />
      <noscript>
        <p className="text-sm text-muted-foreground">The security check needs JavaScript. Without it, please use the contact form.</p>
      </noscript>
      <Button type="submit" size="lg">
        Book this call
      </Button>
    </form>
  );
}
